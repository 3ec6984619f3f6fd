/// A list whose first `inline` elements are stored in place, without an allocation, and the rest
/// in an array: for the short lists of a file's read (a page tree node's kids, a keywords string's
/// pieces) that rarely outgrow it.
struct SmallList<let inline: Int, Element>: RandomAccessCollection {
    private var few: InlineArray<inline, Element>
    private var more: [Element] = []
    private(set) var count = 0

    /// An empty list; `filler` only initialises the unused inline slots.
    init(filler: Element) { few = InlineArray(repeating: filler) }

    var startIndex: Int { 0 }
    var endIndex: Int { count }

    subscript(i: Int) -> Element { i < inline ? few[i] : more[i - inline] }

    mutating func append(_ element: Element) {
        if count < inline { few[count] = element } else { more.append(element) }
        count += 1
    }
}
