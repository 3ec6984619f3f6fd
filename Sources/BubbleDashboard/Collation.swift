/// A sort key for titles that ignores case and accents and keeps each script together, built from
/// the standard library alone (no Foundation, no ICU).
///
/// Each letter of the title becomes one element, `script << 21 | base scalar`, and each run of
/// digits its length (leading zeros dropped) then its digits, so numbers sort by value ("Report 2"
/// before "Report 10"). Digits come first, then Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic, the Indic scripts, Thai, kana,
/// Hangul, Han, and every other script last. Case is folded with `lowercased()`; combining marks
/// (a decomposed "é") are dropped; precomposed Latin letters with diacritics fold to their base
/// letter through a table of Latin-1 Supplement and Latin Extended-A ("é", "ł", "ő" → "e", "l",
/// "o"; "ß" → "ss", "æ" → "ae"), and Greek letters with tonos or dialytika to theirs.
///
/// Limits: Latin Extended-B, Latin Extended Additional (Vietnamese) and other precomposed letters
/// outside those tables keep their own scalar and sort after "z"; letters are compared one by one
/// (no language's tailoring: "ch" is not a Czech letter, "ä" sorts as "a" as in German
/// dictionaries, not after "z" as in Swedish); spaces and punctuation are ignored.
struct CollationKey: Sendable, Hashable, Comparable {
    /// The elements, in reading order.
    var elements: [UInt32]

    /// The key of `text`.
    init(_ text: String) {
        self.init(text, fromWord: 0)
    }

    /// The key of `title` from its word `word` on (words are runs of bytes between spaces; the
    /// whole title when it has no more words than that): the key of that part. ASCII is read from
    /// the bytes; other scalars are lower-cased one by one (as `lowercased()` does).
    init(_ title: String, fromWord word: Int) {
        var text = title
        elements = text.withUTF8 { u in
            // Where the word begins.
            var i = 0, seen = 0
            while i < u.count && u[i] == 32 { i += 1 }
            while seen < word && i < u.count {
                while i < u.count && u[i] != 32 { i += 1 }
                while i < u.count && u[i] == 32 { i += 1 }
                seen += 1
            }
            if i >= u.count { i = 0 }
            var builder = Builder(capacity: u.count - i)
            var k = i
            while k < u.count && u[k] < 0x80 {
                var v = UInt32(u[k])
                if v >= 65 && v <= 90 { v += 32 }
                builder.add(v)
                k += 1
            }
            if k < u.count {
                for scalar in String(decoding: UnsafeBufferPointer(rebasing: u[k...]), as: UTF8.self).unicodeScalars {
                    if scalar.value < 0x80 {
                        var v = scalar.value
                        if v >= 65 && v <= 90 { v += 32 }
                        builder.add(v)
                    } else {
                        for lower in scalar.properties.lowercaseMapping.unicodeScalars { builder.add(lower.value) }
                    }
                }
            }
            return builder.finish()
        }
    }

    /// Builds a key from lower-cased scalars.
    private struct Builder {
        var elements: [UInt32] = []
        /// Where the open run of digits keeps its length; -1 outside one.
        var digitRun = -1

        init(capacity: Int) { elements.reserveCapacity(capacity) }

        mutating func add(_ v: UInt32) {
            if v >= 48 && v <= 57 {
                // A run of digits: its length (without leading zeros) first, so "2" < "10".
                if digitRun < 0 {
                    digitRun = elements.count
                    elements.append(0)
                }
                if v == 48 && elements.count == digitRun + 1 { return }
                elements.append(CollationKey.element(v))
                return
            }
            closeRun()
            if v < 0x80 {
                // ASCII: lower-case letters (upper case was folded).
                if v >= 97 && v <= 122 { elements.append(CollationKey.element(v)) }
                return
            }
            guard let scalar = Unicode.Scalar(v) else { return }
            let p = scalar.properties
            guard p.isAlphabetic || p.numericType != nil else { return }
            if p.canonicalCombiningClass.rawValue != 0 || p.generalCategory == .nonspacingMark { return }
            for base in CollationKey.base(of: v) { elements.append(CollationKey.element(base)) }
        }

        mutating func closeRun() {
            if digitRun >= 0 {
                elements[digitRun] = UInt32(min(elements.count - digitRun - 1, 0x2F))
                digitRun = -1
            }
        }

        mutating func finish() -> [UInt32] {
            closeRun()
            return elements
        }
    }

    /// -1, 0 or 1 as `a` sorts before, with, or after `b`.
    static func compare(_ a: CollationKey, _ b: CollationKey) -> Int {
        a.elements.withUnsafeBufferPointer { x in
            b.elements.withUnsafeBufferPointer { y in
                let m = min(x.count, y.count)
                for i in 0..<m where x[i] != y[i] { return x[i] < y[i] ? -1 : 1 }
                return x.count == y.count ? 0 : (x.count < y.count ? -1 : 1)
            }
        }
    }

    /// Whether `element` is a digit or a digit run's length (script 0).
    static func isNumeric(_ element: UInt32) -> Bool { element >> 21 == 0 }

    static func < (a: CollationKey, b: CollationKey) -> Bool { a.elements.lexicographicallyPrecedes(b.elements) }

    /// The scalar an element stands for (its base letter, lower-cased).
    static func scalar(of element: UInt32) -> Unicode.Scalar { Unicode.Scalar(element & 0x1F_FFFF) ?? " " }

    /// The elements of `prefix` as they are shown in a range ("Pa"): the first upper-cased.
    static func display(_ prefix: ArraySlice<UInt32>) -> String {
        var text = ""
        for (i, e) in prefix.enumerated() {
            let s = String(Character(scalar(of: e)))
            text += i == 0 ? s.uppercased() : s
        }
        return text
    }

    /// The element of a base scalar: its script's rank above the scalar.
    static func element(_ v: UInt32) -> UInt32 { script(of: v) << 21 | v }

    /// The rank of the script `v` belongs to (0 for digits, 1 for Latin, … 12 for others).
    static func script(of v: UInt32) -> UInt32 {
        switch v {
        case 0x30...0x39: return 0
        case 0x41...0x24F, 0x1E00...0x1EFF: return 1
        case 0x370...0x3FF, 0x1F00...0x1FFF: return 2
        case 0x400...0x52F: return 3
        case 0x530...0x58F: return 4
        case 0x590...0x5FF: return 5
        case 0x600...0x6FF, 0x750...0x77F, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return 6
        case 0x900...0xDFF: return 7
        case 0xE00...0xE7F: return 8
        case 0x3040...0x30FF: return 9
        case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7AF: return 10
        case 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF: return 11
        default: return 12
        }
    }

    /// Base letters of U+00E0 … U+00FF (lower case), "-" where there is none (U+00F7 "÷").
    static let latin1 = Array("aaaaaaæceeeeiiiidnooooo-ouuuuyþy".unicodeScalars)
    /// Base letters of U+0100 … U+017F (both cases).
    static let latinExtendedA = Array(
        ("aaaaaa" + "cccccccc" + "dddd" + "eeeeeeeeee" + "gggggggg" + "hhhh" + "iiiiiiiiii" + "ii" + "jj" + "kkk"
         + "llllllllll" + "nnnnnnnnn" + "oooooo" + "oo" + "rrrrrr" + "ssssssss" + "tttttt" + "uuuuuuuuuuuu" + "ww"
         + "yyy" + "zzzzzz" + "s").unicodeScalars)
    /// Greek letters with tonos or dialytika (lower case) and their base letters.
    static let greek: [(UInt32, UInt32)] = [
        (0x3AC, 0x3B1), (0x3AD, 0x3B5), (0x3AE, 0x3B7), (0x3AF, 0x3B9), (0x3CC, 0x3BF), (0x3CD, 0x3C5), (0x3CE, 0x3C9),
        (0x3CA, 0x3B9), (0x3CB, 0x3C5), (0x390, 0x3B9), (0x3B0, 0x3C5), (0x3C2, 0x3C3),
    ]

    /// The base scalars of a lower-cased scalar (two for "ß", "æ", "œ", "þ").
    static func base(of v: UInt32) -> [UInt32] {
        switch v {
        case 0xDF: return [0x73, 0x73]
        case 0xE6: return [0x61, 0x65]
        case 0x153: return [0x6F, 0x65]
        case 0xFE: return [0x74, 0x68]
        case 0x451: return [0x435]  // ё → е
        case 0xE0...0xFF:
            let b = latin1[Int(v - 0xE0)].value
            return b == 0x2D ? [] : [b]
        case 0x100...0x17F: return [latinExtendedA[Int(v - 0x100)].value]
        default:
            for (accented, plain) in greek where accented == v { return [plain] }
            return [v]
        }
    }
}
