/// Limits and switches for reading one PDF. The defaults suit real-world reports; every limit
/// exists so that a hostile file ends in a ``PDFError`` within bounded time and memory.
public struct PDFReadOptions: Sendable, Equatable {
    /// The user password to try; the common "protected" report opens with the empty one.
    public var password: String = ""
    /// When true, the first repair that lenient mode would record as a ``PDFWarning`` fails the
    /// read with ``PDFError/Kind/strictModeViolation`` instead.
    public var strict: Bool = false
    /// Whether to read the catalog's XMP `/Metadata` stream (used where the Info dictionary lacks
    /// a field).
    public var readXMP: Bool = true
    /// The most bytes any one stream may decode to (and the most raw bytes it may have). 8 MiB is
    /// far above any real XMP packet, xref stream or object stream, and inflating up to it stays fast.
    public var maxDecompressedSize: Int = 8 << 20
    /// The most bytes one object stream may decode to. Object streams are the one kind of stream
    /// that real files make large (a browser-printed 1.5 MB report holds a 13 MB one), so they get
    /// their own cap, 32 MiB by default. Below it a stream is decoded in steps, only as far as the
    /// objects asked for reach (64 KiB first). A stream that decodes to more than the cap is read up
    /// to the cap, with a `truncatedStream` warning: its objects in the first `maxObjectStreamSize`
    /// bytes (the catalog and Info dictionary are small and usually early) are read, and an object
    /// past it fails with ``PDFError/Kind/decompressionLimit`` naming the object, the stream and
    /// this option.
    public var maxObjectStreamSize: Int = 32 << 20
    /// The most bytes the XMP metadata stream may decode to (real packets are a few KB; their
    /// padding rarely takes them past 64 KB). Also capped by ``maxDecompressedSize``.
    public var maxMetadataStreamSize: Int = 1 << 20
    /// The most bytes each Flate layer of the XMP stream may inflate to per compressed byte, once
    /// past 32 KiB of output (`nil`: no ratio check). Real packets, padding included, stay far
    /// below 128 : 1 (text about 4 : 1; 4 KB of text with 36 KB of padding about 26 : 1), while a
    /// bomb of zeros inflates about 1 000 : 1: the check refuses it after ~32 KiB of work instead
    /// of inflating it up to ``maxMetadataStreamSize``. Only a packet of well over 100 KB that is
    /// almost all padding would be refused, with the `unreadableXMP` warning.
    public var maxMetadataInflateRatio: Int? = 128
    /// The deepest nesting of arrays and dictionaries accepted in one object.
    public var maxNestingDepth: Int = 100
    /// The longest chain of indirect references followed to reach one object, and the deepest
    /// nesting of objects being resolved at once (an object in an object stream whose `/Length`
    /// is in another object stream, and so on).
    public var maxReferenceChain: Int = 32
    /// The most cross-reference sections followed through `/Prev` and `/XRefStm`.
    public var maxXrefSections: Int = 256
    /// The most objects a repair scan may record before giving up.
    public var maxRepairObjects: Int = 1_000_000
    /// The most bytes of PDF syntax one (non-stream) object or xref table may span.
    public var maxObjectSize: Int = 16 << 20
    /// The most cross-reference entries read, in one section and over all sections chained by
    /// `/Prev` (real files have far fewer: a 1 000-page report holds tens of thousands of
    /// objects). At the limit the table takes about 150 MB; without it, one xref stream of
    /// 8 MiB could describe 8 million objects, and 256 chained sections 2 billion.
    public var maxXrefEntries: Int = 1 << 21
    /// The largest file a repair scan reads (it reads the whole file, searching for `N G obj`).
    /// 1 GiB takes about a second; a damaged file above it is refused with
    /// ``PDFError/Kind/limitExceeded`` instead of being scanned.
    public var maxRepairScanBytes: Int = 1 << 30

    /// The most page tree nodes (pages and intermediate nodes) visited when the root's `/Count`
    /// disagrees with its kids and the tree is walked to count the pages; past it, `/Count` is kept.
    public var maxPageTreeNodes: Int = 200_000

    /// Creates options with the defaults.
    public init() {}
}
