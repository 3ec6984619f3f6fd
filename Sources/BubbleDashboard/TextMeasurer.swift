/// The kinds of bubble label whose size decides a bubble's size.
public enum BubbleLabelRole: Sendable, Hashable {
    /// A report card's title, at the card title's design size.
    case cardTitle
    /// A category circle's title, at the smallest size the renderer should need for it.
    case categoryTitle
    /// A keyword chip of the filter sheet, or a filter token in the breadcrumb bar: one line of
    /// the chip's regular type (the renderer's chip font; 14 pt by default).
    case chip
}

/// The measured size of a label: the block its lines take (points) and how many lines.
public struct MeasuredText: Sendable, Hashable {
    /// Width of the widest line (pt).
    public var width: Double
    /// Height of all lines (pt).
    public var height: Double
    /// Number of lines.
    public var lineCount: Int

    /// A measured size.
    public init(width: Double, height: Double, lineCount: Int) {
        self.width = width
        self.height = height
        self.lineCount = lineCount
    }
}

/// Tells the dashboard how big a label is, as the host's renderer will lay it out: the renderer of
/// this package supplies one through Pango (`PangoTextMeasurer`), an iPad app one through Core Text.
/// The dashboard sizes report cards from their measured titles, and grows a category circle until its
/// title fits, so a title that can fit is never shortened.
///
/// A measurer must be deterministic: the same text, role and width give the same size.
public protocol TextMeasurer: AnyObject {
    /// The block `text` takes in the font of `role`, wrapped into lines at most `width` points wide
    /// (a word longer than a line is broken).
    func measure(_ text: String, role: BubbleLabelRole, width: Double) -> MeasuredText

    /// The font size `measure` lays `role` out at (pt): a level shrunk by a factor s shows its
    /// labels at s times this size, which the legibility floor compares with
    /// `DashboardSettings.minimumLabelFontSize`.
    func fontSize(for role: BubbleLabelRole) -> Double

    /// Where `text` can be broken across lines, from one measurement: lets the dashboard wrap a
    /// title at many widths without measuring it again. Nil where only `measure` can tell (the
    /// default): text in several fonts or directions, for example.
    func lineBreaks(_ text: String, role: BubbleLabelRole) -> LineBreaks?
}

extension TextMeasurer {
    /// No break opportunities: the dashboard measures every width it tries.
    public func lineBreaks(_ text: String, role: BubbleLabelRole) -> LineBreaks? { nil }
}

/// A one-line label and its break opportunities, in a measurer's own integer units, so that
/// wrapping it greedily at a width gives exactly what the measurer's `measure` gives there.
///
/// For the break before character k, `ends[k]` is where a line ending there ends (its trailing
/// spaces left out) and `starts[k]` where the next line begins, both from the start of the label.
public struct LineBreaks: Sendable, Hashable {
    /// The width the dashboard measures a label on one line at (wider than any label).
    public static let unwrappedWidth = 1_000_000.0

    /// Units per point (Pango's 1024).
    public var unitsPerPoint: Int
    /// The whole label on one line.
    public var width: Int
    /// The height of one line; every line of the label has it.
    public var lineHeight: Int
    /// Where a line ending before character k ends, per k (units).
    public var ends: [Int]
    /// Where the line after a break before character k starts, per k (units).
    public var starts: [Int]

    /// Break opportunities in a measurer's units.
    public init(unitsPerPoint: Int, width: Int, lineHeight: Int, ends: [Int], starts: [Int]) {
        precondition(ends.count == starts.count)
        self.unitsPerPoint = unitsPerPoint
        self.width = width
        self.lineHeight = lineHeight
        self.ends = ends
        self.starts = starts
    }

    /// The widest run between two break opportunities (points): a line narrower than this breaks
    /// a word.
    public var longestWord: Double {
        var longest = 0, start = 0
        for (end, next) in zip(ends, starts) {
            longest = max(longest, end - start)
            start = next
        }
        return Double(max(longest, width - start)) / Double(unitsPerPoint)
    }

    /// The label wrapped at `width` points: each line as long as fits, broken at the last
    /// opportunity that fits. Nil when a word is longer than a line (the measurer breaks inside
    /// it, which these breaks cannot tell).
    public func wrapped(within width: Double) -> MeasuredText? {
        guard width.isFinite else { return nil }
        let limit = Int(max(0, min(width, 1e9)) * Double(unitsPerPoint))
        var start = 0, count = 1, widest = 0, k = 0
        var fit: Int? = nil
        while true {
            let end = k < ends.count ? ends[k] : self.width
            if end - start <= limit {
                if k == ends.count {
                    widest = max(widest, end - start)
                    break
                }
                fit = k
                k += 1
            } else {
                guard let f = fit else { return nil }
                widest = max(widest, ends[f] - start)
                start = starts[f]
                count += 1
                fit = nil
            }
        }
        let unit = Double(unitsPerPoint)
        return MeasuredText(width: Double(widest) / unit, height: Double(lineHeight * count) / unit, lineCount: count)
    }
}
