import Foundation

/// One searchable piece of a text after normalisation: a word, or one character (one grapheme
/// cluster) of a script written without spaces.
public struct SearchToken: Sendable, Hashable {
    /// The normalised form: case folded, diacritics removed, width folded. Contains only letters,
    /// digits and the marks a script needs (Thai vowels, Devanagari signs, Japanese voicing marks).
    public var text: String
    /// Where the token stands in the original text, in Unicode scalar offsets (end exclusive).
    public var range: Range<Int>
    /// True for a token of a script written without spaces (Han, kana, Hangul, Thai, Lao, Khmer,
    /// Myanmar): each character or grapheme cluster is a token of its own, and a word of such a
    /// script is matched as a phrase of them, so a query finds it anywhere inside a longer run.
    public var isUnit: Bool
}

/// The one normalisation of the index and of queries: the same function makes the indexed text
/// and the query's terms, so whatever a reader calls equal is equal.
///
/// - Case is folded (full Unicode lower case; `ß` and `ẞ` become `ss`, final `ς` becomes `σ`).
/// - Compatibility forms are folded (NFKD): full-width Latin and digits, half-width katakana,
///   ligatures (`ﬁ`), superscripts.
/// - Diacritics are removed in the scripts that write them as marks: Latin, Greek, Cyrillic
///   (including Vietnamese stacked marks), Hebrew points and cantillation, Arabic harakat,
///   tatweel and hamza. Marks that spell a different letter stay: Thai, Lao, Khmer and Myanmar
///   vowels and tones, Indic vowel signs, Japanese voicing marks (`が` is not `か`).
/// - Text is cut into words at anything that is not a letter, digit or mark. Han, kana, Hangul,
///   Thai, Lao, Khmer and Myanmar text is cut into single characters (grapheme clusters), so a
///   query of one, two or more characters finds them inside a longer unspaced run.
public enum SearchText {
    /// The tokens of `text`, in order.
    public static func tokens(_ text: String) -> [SearchToken] {
        var folder = Folder()
        return folder.tokens(text)
    }

    /// The normalised text: the tokens' texts joined by single spaces (what the full-text index
    /// stores for a field).
    public static func normalize(_ text: String) -> String {
        tokens(text).map(\.text).joined(separator: " ")
    }

    /// The normalised form of a whole keyword, for comparing keywords (facets, `--keyword`): control
    /// characters (tabs, new lines, backspace, form feed) become spaces and runs of spaces collapse,
    /// then the text is normalised as above. A keyword read from a PDF with control characters
    /// inside and the same keyword typed with spaces have one key.
    public static func keywordKey(_ keyword: String) -> String {
        var cleaned = String.UnicodeScalarView()
        for scalar in keyword.unicodeScalars {
            let space = scalar.properties.generalCategory == .control || scalar.properties.isWhitespace
            if space {
                if cleaned.last != " " { cleaned.append(" ") }
            } else {
                cleaned.append(scalar)
            }
        }
        return normalize(String(cleaned))
    }

    /// What separates a column's whole tokens from the parts of its tokens, and one token's parts
    /// from the next's, in the full-text index: U+FFFF, a character no token holds, so no phrase
    /// of a query spans it.
    static let partsMark = "\u{FFFF}"

    /// The parts of a normalised token between letter/digit boundaries (`l3pdfannot` → `l`, `3`,
    /// `pdfannot`; `inv2020` → `inv`, `2020`), or none when it has no such boundary.
    public static func parts(of token: Substring) -> [Substring] {
        var result: [Substring] = []
        var start = token.startIndex
        var previous: Bool?
        var i = token.startIndex
        while i != token.endIndex {
            let scalar = token.unicodeScalars[i]
            let category = scalar.properties.generalCategory
            let isMark = category == .nonspacingMark || category == .spacingMark || category == .enclosingMark
            if !isMark {
                let digit = category == .decimalNumber || category == .letterNumber || category == .otherNumber
                if let previous, previous != digit {
                    result.append(token[start..<i])
                    start = i
                }
                previous = digit
            }
            i = token.unicodeScalars.index(after: i)
        }
        guard !result.isEmpty else { return [] }
        result.append(token[start..<token.endIndex])
        return result
    }

    /// A normalised column as the full-text index stores it: its tokens, then for each token of
    /// letters and digits the mark U+FFFF (a character no token holds, so no phrase spans it) and
    /// the token's parts, so that a word inside
    /// `paper1997corrected` is found while phrases of whole tokens stay as they were.
    public static func indexed(_ normalized: String) -> String {
        guard holdsNumber(normalized), !normalized.unicodeScalars.contains("\u{FFFF}")  // indexed already
        else { return normalized }
        return normalized + partsOfWords(normalized)
    }

    /// Whether `text` holds a scalar with a numeric type: ``indexed(_:)`` adds parts only then.
    static func holdsNumber(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.numericType != nil }
    }

    /// What ``indexed(_:)`` appends for `normalized`'s words (``words(_:)``) that have parts: for
    /// each, a space, the parts mark, a space and its parts joined by spaces.
    static func partsOfWords(_ normalized: String) -> String {
        var out = ""
        for word in words(normalized[...]) {
            let parts = parts(of: word)
            if !parts.isEmpty { out += " " + partsMark + " " + parts.joined(separator: " ") }
        }
        return out
    }

    /// A normalised text's words: the text split at each space that is a character of its own,
    /// empty pieces left out; the same pieces as `split(separator: " ")`, which compares
    /// characters, found byte by byte. A space is a character of its own unless the scalar after
    /// it extends it (a mark, a zero-width joiner) or the one before it is a prepended
    /// concatenation mark; both are pairwise rules of grapheme clustering that no rule on a space
    /// overrides, so each neighbour is tested alone (``joinsSpace(_:after:)``).
    static func words(_ text: Substring) -> [Substring] {
        var result: [Substring] = []
        let utf8 = text.utf8
        func word(_ range: Range<Int>) {
            result.append(text[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)])
        }
        if utf8.withContiguousStorageIfAvailable({ forEachWord(in: $0, word) }) == nil {
            var copy = String(text)
            copy.withUTF8 { forEachWord(in: $0, word) }
        }
        return result
    }

    /// ``words(_:)`` of valid UTF-8 `bytes`, each as the range of its bytes, in order.
    static func forEachWord(in bytes: UnsafeBufferPointer<UInt8>, _ body: (Range<Int>) -> Void) {
        var start = 0
        for i in 0..<bytes.count where bytes[i] == 0x20 {
            let next = i + 1
            // A byte below 0x80 is an ASCII scalar of its own.
            let alone = (i == 0 || bytes[i - 1] < 0x80 || !joinsSpace(scalar(endingBefore: i, in: bytes), after: false))
                && (next == bytes.count || bytes[next] < 0x80 || !joinsSpace(scalar(at: next, in: bytes), after: true))
            if alone {
                if start != i { body(start..<i) }
                start = next
            }
        }
        if start != bytes.count { body(start..<bytes.count) }
    }

    /// The scalar whose valid UTF-8 begins at `i` of `bytes`.
    static func scalar(at i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        let lead = UInt32(bytes[i])
        func tail(_ k: Int) -> UInt32 { UInt32(bytes[i + k] & 0x3F) }
        let value: UInt32
        if lead < 0x80 {
            value = lead
        } else if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | tail(1)
        } else if lead < 0xF0 {
            value = (lead & 0x0F) << 12 | tail(1) << 6 | tail(2)
        } else {
            value = (lead & 0x07) << 18 | tail(1) << 12 | tail(2) << 6 | tail(3)
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// The scalar whose valid UTF-8 ends just before `i` of `bytes` (`i` > 0).
    static func scalar(endingBefore i: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar {
        var start = i - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return scalar(at: start, in: bytes)
    }

    /// Whether `scalar` makes one character with a space: after it (`after`, a mark or joiner that
    /// extends the space) or before it (a prepended concatenation mark). No ASCII scalar does.
    static func joinsSpace(_ scalar: Unicode.Scalar, after: Bool) -> Bool {
        guard !scalarsNeverJoiningSpace.contains(where: { $0.contains(scalar.value) }) else { return false }
        return (after ? " " + String(scalar) : String(scalar) + " ").count == 1
    }

    /// Ranges of scalars that make no character with a space on either side (tested against
    /// grapheme clustering, scalar by scalar): ASCII, Latin, Greek, Cyrillic, Hebrew and Arabic
    /// letters, Thai consonants, kana, Han and Hangul syllables, and the parts mark
    /// (``partsMark``).
    static let scalarsNeverJoiningSpace: [ClosedRange<UInt32>] = [
        0x0000...0x02FF, 0x0370...0x0482, 0x048A...0x0590, 0x05D0...0x05EA, 0x0620...0x064A, 0x0E01...0x0E30, 0x3041...0x3096,
        0x30A1...0x30FA, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xFFFF...0xFFFF,
    ]

    /// The folded forms of the characters met so far in this process (shared by every folder).
    final class FoldCache: @unchecked Sendable {
        static let shared = FoldCache()
        private let lock = NSLock()
        private var folded: [Character: String] = [:]

        func get(_ c: Character) -> String? { lock.withLock { folded[c] } }

        func set(_ c: Character, _ value: String) {
            lock.withLock { if folded.count < 1 << 20 { folded[c] = value } }
        }
    }

    /// Folds characters and cuts text into tokens, remembering folded characters locally and in
    /// ``FoldCache``. One per thread.
    struct Folder {
        private var cache: [Character: String] = [:]

        mutating func tokens(_ text: String) -> [SearchToken] {
            var result: [SearchToken] = []
            var word = ""
            var wordStart = 0
            var wordEnd = 0
            var offset = 0
            func flush() {
                if !word.isEmpty {
                    result.append(SearchToken(text: word, range: wordStart..<wordEnd, isUnit: false))
                    word = ""
                }
            }
            for character in text {
                let start = offset
                offset += character.unicodeScalars.count
                let folded = fold(character)
                guard let first = folded.unicodeScalars.first else {
                    continue  // an ignorable character (a lone mark, tatweel, a bidi control)
                }
                if SearchText.isUnitScript(first) {
                    flush()
                    if SearchText.isWordScalar(first) {
                        result.append(SearchToken(text: folded, range: start..<offset, isUnit: true))
                    }
                    continue
                }
                for scalar in folded.unicodeScalars {
                    if SearchText.isWordScalar(scalar) {
                        if word.isEmpty { wordStart = start }
                        word.unicodeScalars.append(scalar)
                        wordEnd = offset
                    } else {
                        flush()
                    }
                }
            }
            flush()
            return result
        }

        /// The folded form of one character: empty for an ignorable one.
        mutating func fold(_ character: Character) -> String {
            if let ascii = character.asciiValue {
                if ascii >= 65 && ascii <= 90 { return String(UnicodeScalar(ascii + 32)) }
                return String(character)
            }
            if let cached = cache[character] { return cached }
            // Han, Hangul, kana, Hebrew and most Thai letters fold to themselves.
            let scalars = character.unicodeScalars
            if scalars.count == 1, let only = scalars.first, SearchText.foldsToItself(only) { return String(character) }
            if let shared = FoldCache.shared.get(character) {
                if cache.count < 65_536 { cache[character] = shared }
                return shared
            }
            var kept = String.UnicodeScalarView()
            for scalar in String(character).decomposedStringWithCompatibilityMapping.unicodeScalars
            where !SearchText.isIgnorable(scalar) {
                kept.append(scalar)
            }
            var lower = String(kept).lowercased()
            if lower.unicodeScalars.contains(where: { $0 == "ß" || $0 == "ς" }) {
                lower = lower.replacingOccurrences(of: "ß", with: "ss").replacingOccurrences(of: "ς", with: "σ")
            }
            // Lower-casing can bring back marks (U+0130 → i + U+0307) and leaves decomposed
            // Hangul and kana: drop the marks again and recompose.
            var again = String.UnicodeScalarView()
            for scalar in lower.decomposedStringWithCompatibilityMapping.unicodeScalars where !SearchText.isIgnorable(scalar) {
                again.append(scalar)
            }
            let result = String(again).precomposedStringWithCanonicalMapping
            if cache.count < 65_536 { cache[character] = result }
            FoldCache.shared.set(character, result)
            return result
        }
    }

    /// Single scalars that NFKD, mark removal, lower-casing and NFC leave as they are.
    static func foldsToItself(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0xAC00...0xD7A3, 0x3041...0x3096, 0x30A1...0x30FA, 0x0E01...0x0E32,
            0x0E34...0x0E3A, 0x0E40...0x0E4E, 0x05D0...0x05EA, 0x0627...0x063A, 0x0641...0x064A:
            return true
        default:
            return false
        }
    }

    /// Letters, digits and the marks left after folding.
    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark, .enclosingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Scripts written without spaces between words, searched character by character.
    static func isUnitScript(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F, 0xA9E0...0xA9FF, 0xAA60...0xAA7F,  // Myanmar
            0x1100...0x11FF, 0x3130...0x318F, 0xA960...0xA97F, 0xD7B0...0xD7FF, 0xAC00...0xD7AF,  // Hangul
            0x1780...0x17FF, 0x19E0...0x19FF,  // Khmer
            0x3005...0x3007, 0x303B,  // 々 〆 〇 〻
            0x3040...0x30FF, 0x31F0...0x31FF,  // kana
            0x3100...0x312F, 0x31A0...0x31BF,  // Bopomofo
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0x20000...0x3FFFF:  // Han
            return true
        default:
            return false
        }
    }

    /// Diacritical marks, points and format characters that a reader does not type.
    static func isIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0300...0x036F, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F,  // combining diacritics
            0x0483...0x0489,  // Cyrillic
            0x0591...0x05BD, 0x05BF, 0x05C1...0x05C2, 0x05C4...0x05C5, 0x05C7,  // Hebrew points and accents
            0x0610...0x061A, 0x0640, 0x064B...0x065F, 0x0670, 0x06D6...0x06DC, 0x06DF...0x06E4,
            0x06E7...0x06E8, 0x06EA...0x06ED,  // Arabic harakat, tatweel, Quranic marks
            0x00AD,  // soft hyphen
            0x200C...0x200F, 0x202A...0x202E, 0x2060...0x2064, 0x2066...0x2069, 0xFEFF,  // joiners, bidi controls
            0xFE00...0xFE0F, 0xE0100...0xE01EF:  // variation selectors
            return true
        default:
            return false
        }
    }
}

/// A user's query, read as text and never as syntax.
///
/// Words are separated by white space; each must match somewhere in the report (title, PDF
/// title, keywords, author or the titles of the categories above it). A word that normalises to
/// several tokens (`o'brien`, `2020-01`, `月次報告`) matches as a phrase. Text between double
/// quotes (`"`, `“ ”`, `„`, `« »`) is one phrase. The last word is a prefix unless the query ends
/// in white space or a closing quote, so results follow typing. Any other character only separates
/// words: `*`, `-`, `:`, `^`, brackets, `AND`, `OR`, `NEAR` and NUL bytes are text.
public struct SearchQuery: Sendable, Hashable {
    /// One word or phrase of the query.
    public struct Term: Sendable, Hashable {
        /// The normalised tokens, in order (one for a plain word).
        public var tokens: [String]
        /// Whether the last token matches any token that starts with it.
        public var isPrefix: Bool
    }

    /// The most terms a query keeps (the rest of a longer query is ignored): 32.
    public static let maxTerms = 32

    /// The text as given.
    public var text: String
    /// The terms, in order, without repeats.
    public var terms: [Term]

    /// Parses `text`.
    public init(_ text: String) {
        self.text = text
        var folder = SearchText.Folder()
        var terms: [Term] = []
        let quotes: Set<Character> = ["\"", "“", "”", "„", "‟", "«", "»"]
        var segment = ""
        var inQuote = false
        func addWords(_ s: String) {
            for word in s.split(whereSeparator: { $0.isWhitespace || $0 == "\0" }) {
                let tokens = folder.tokens(String(word)).map(\.text)
                if !tokens.isEmpty { terms.append(Term(tokens: tokens, isPrefix: false)) }
            }
        }
        for character in text {
            if quotes.contains(character) {
                if inQuote {
                    let tokens = folder.tokens(segment).map(\.text)
                    if !tokens.isEmpty { terms.append(Term(tokens: tokens, isPrefix: false)) }
                } else {
                    addWords(segment)
                }
                segment = ""
                inQuote.toggle()
            } else {
                segment.append(character)
            }
        }
        if inQuote {
            let tokens = folder.tokens(segment).map(\.text)
            if !tokens.isEmpty { terms.append(Term(tokens: tokens, isPrefix: false)) }
        } else {
            addWords(segment)
        }
        if let last = text.last, !last.isWhitespace, !quotes.contains(last), last != "\0", !terms.isEmpty {
            terms[terms.count - 1].isPrefix = true
        }
        var seen: Set<Term> = []
        self.terms = Array(terms.filter { seen.insert($0).inserted }.prefix(Self.maxTerms))
    }

    /// True when the query has no searchable word (empty, white space or punctuation only): it
    /// then matches every report.
    public var isEmpty: Bool { terms.isEmpty }

    /// The FTS5 expression: every term a quoted string (so nothing in it is syntax), ANDed.
    func ftsExpression(column: String? = nil) -> String? {
        guard !terms.isEmpty else { return nil }
        let body = terms.map { term in
            "\"" + term.tokens.joined(separator: " ") + "\"" + (term.isPrefix ? "*" : "")
        }.joined(separator: " AND ")
        if let column { return "{\(column)} : (\(body))" }
        return body
    }

    /// Where the query's terms match in `text`: merged spans in Unicode scalar offsets. A word
    /// typed in part (the last, as typed so far) marks only its typed part.
    public func spans(in text: String) -> [Range<Int>] {
        guard !terms.isEmpty else { return [] }
        return spans(inTokens: SearchText.tokens(text))
    }

    func spans(inTokens tokens: [SearchToken]) -> [Range<Int>] {
        var found: [Range<Int>] = []
        collectSpans(tokens, into: &found)
        // Parts of tokens of letters and digits, each token's parts apart.
        for token in tokens where !token.isUnit {
            let parts = SearchText.parts(of: Substring(token.text))
            guard !parts.isEmpty else { continue }
            let exact = token.text.unicodeScalars.count == token.range.count
            var partTokens: [SearchToken] = []
            for part in parts {
                let from = token.text.unicodeScalars.distance(from: token.text.startIndex, to: part.startIndex)
                let range = exact ? (token.range.lowerBound + from)..<(token.range.lowerBound + from + part.unicodeScalars.count) : token.range
                partTokens.append(SearchToken(text: String(part), range: range, isUnit: false))
            }
            collectSpans(partTokens, into: &found)
        }
        found.sort { $0.lowerBound != $1.lowerBound ? $0.lowerBound < $1.lowerBound : $0.upperBound < $1.upperBound }
        var merged: [Range<Int>] = []
        for span in found {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    private func collectSpans(_ tokens: [SearchToken], into found: inout [Range<Int>]) {
        for term in terms {
            let n = term.tokens.count
            guard n <= tokens.count else { continue }
            for i in 0...(tokens.count - n) {
                var matches = true
                for j in 0..<n {
                    // Byte-wise, as the full-text index compares.
                    let have = tokens[i + j].text.utf8
                    let want = term.tokens[j].utf8
                    if j == n - 1 && term.isPrefix ? !have.starts(with: want) : !have.elementsEqual(want) {
                        matches = false
                        break
                    }
                }
                guard matches else { continue }
                // A word typed in part marks the part typed ("Zür" of "Zürich" for "zur"), where the
                // word folds one character to one; else the whole word.
                let last = tokens[i + n - 1]
                var end = last.range.upperBound
                if term.isPrefix, let typed = term.tokens.last, last.text.unicodeScalars.count == last.range.count {
                    end = min(end, last.range.lowerBound + typed.unicodeScalars.count)
                }
                found.append(tokens[i].range.lowerBound..<end)
            }
        }
    }
}
