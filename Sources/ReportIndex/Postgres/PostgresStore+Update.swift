import Foundation
import NIOCore
import PostgresNIO

// The writes of an update, as the SQLite store makes them (see `Writer`), in PostgreSQL: each
// batch of reports in one statement per table (arrays unnested), the signature written last.
extension PostgresStore {
    /// The SQL of each report's counted keys, each once: `(ord, prefix)` over `relation`, which
    /// has the reports' numbers `ord` and vectors `v`. Each lexeme is a one-byte tag and a token;
    /// `left` counts Unicode scalars. As the writer counts them (``vector(_:)``): every prefix of
    /// a token of at most ``countedPrefixBytes`` bytes that does not end with a space, and the
    /// token and a space when those fit.
    static func countedPrefixes(in relation: String) -> String {
        """
        SELECT DISTINCT \(relation).ord, p.prefix
        FROM \(relation), unnest(\(relation).v) AS l, LATERAL (
            SELECT left(substr(l.lexeme, 2), k) FROM generate_series(1, least(\(countedPrefixBytes), length(l.lexeme) - 1)) AS k
            WHERE octet_length(left(substr(l.lexeme, 2), k)) <= \(countedPrefixBytes) AND right(left(substr(l.lexeme, 2), k), 1) <> ' '
            UNION ALL
            SELECT substr(l.lexeme, 2) || ' ' WHERE octet_length(l.lexeme) <= \(countedPrefixBytes)) AS p(prefix)
        """
    }

    /// PostgreSQL's text cannot hold NUL: it is stored as U+FFFD.
    static func text(_ s: String) -> String {
        s.utf8.contains(0) ? s.replacingOccurrences(of: "\u{0}", with: "\u{FFFD}") : s
    }

    /// The field tags of the lexemes in a report's vector, in ``SearchField`` order: title `1`,
    /// PDF title `2`, keywords `3`, author `4`, category titles `5`. A lexeme is its field's tag
    /// then the token, so `'1rev':*` is a title word that begins with "rev"; the tag is always
    /// one byte, so a lexeme splits into tag and token one way only.
    static let fieldTags = ["1", "2", "3", "4", "5"]

    /// The tags of the lexemes that pair two neighbouring tokens of scripts written without
    /// spaces, in ``SearchField`` order (see ``vector(_:)``).
    static let pairTags: [UInt8] = Array("ABCDE".utf8)

    /// What joins a pair's two tokens in its lexeme: U+0001, which no token holds.
    static let pairSeparator: UInt8 = 0x01

    /// The longest key, in UTF-8 bytes, whose reports `prefix_count` counts: 16 (a word of up to
    /// 16 Latin letters, 8 Cyrillic or Greek, 5 CJK or Thai). Its keys are every prefix of a token
    /// that ends where a Unicode scalar ends and is no longer (the reports with a token that
    /// begins with it) and does not end with a space, and a whole token followed by a space when
    /// that is no longer (the reports with that token), so the total of a one-word query is one
    /// lookup at any length they hold.
    static let countedPrefixBytes = 16

    /// The longest token a lexeme can hold after its tag (PostgreSQL's lexemes hold at most
    /// 2 046 bytes); a longer one is left out of the vector, and a query for it matches nothing.
    static let longestToken = 2_045

    /// A report's `tsvector` literal from its five indexed columns (``SearchText/indexed(_:)``,
    /// in ``SearchField`` order): each token tagged with its field, at its position in its
    /// column (the parts mark leaving a gap, so no phrase spans it, and no lexeme). Built here
    /// rather than by `to_tsvector`, so that PostgreSQL never tokenises the text again; the
    /// writer sends the same value in binary (``vector(_:keys:)``).
    static func tsvector(_ columns: [String]) -> String { vector(columns).literal }

    /// ``tsvector(_:)`` and the report's keys for `prefix_count` (``countedPrefixBytes``): every
    /// prefix of every token in the vector that ends with a Unicode scalar and holds at most
    /// that many bytes, and every token followed by a space that does, each once, sorted.
    ///
    /// Two tokens of scripts written without spaces (``SearchText/isUnitScript(_:)``) at
    /// neighbouring positions of a field are also one lexeme at the first one's position: the
    /// field's ``pairTags`` tag, the first token, U+0001 and the second (``pairSeparator``), so
    /// that a phrase of two such characters being typed is one lexeme (`'A売\u{1}上':*`) rather
    /// than a phrase whose positions are checked in every report that has both, and a longer
    /// phrase is its pairs at consecutive positions (``postingTerms(_:_:)``).
    static func vector(_ columns: [String]) -> (literal: String, prefixes: [PackedPrefix]) {
        var tokens: [CountedToken] = []
        let binary = vector(columns, tokens: &tokens)
        var prefixes = tokens.flatMap { $0.keys(after: 0) }
        prefixes.sort()
        var unique: [PackedPrefix] = []
        for prefix in prefixes where prefix != unique.last { unique.append(prefix) }
        return (literal(binary.bytes), unique)
    }

    /// ``vector(_:)``'s value in the binary form of `tsvector`; the tokens of its lexemes are
    /// appended to `tokens` in the order met, a token as often as a lexeme holds it (their keys
    /// are ``vector(_:)``'s: see ``CountedToken/distinct(_:)``).
    static func vector(_ columns: [String], tokens: inout [CountedToken]) -> BinaryVector {
        var titleTokens = 0
        return vector(columns, tokens: &tokens, titleTokens: &titleTokens)
    }

    /// ``vector(_:tokens:)``, and how many of the tokens appended come from the title (the first
    /// of them: the title is the first column).
    static func vector(_ columns: [String], tokens: inout [CountedToken], titleTokens: inout Int) -> BinaryVector {
        let before = tokens.count
        titleTokens = 0
        var lexemes: [UInt8] = []
        lexemes.reserveCapacity(columns.reduce(16) { $0 + $1.utf8.count + 16 })
        var entries: [VectorEntry] = []
        let mark = Array(SearchText.partsMark.utf8)
        func lexeme(_ tag: UInt8, _ first: UnsafeBufferPointer<UInt8>.SubSequence, _ second: UnsafeBufferPointer<UInt8>.SubSequence? = nil, position: Int) {
            let start = lexemes.count
            lexemes.append(tag)
            lexemes.append(contentsOf: first)
            if let second {
                lexemes.append(pairSeparator)
                lexemes.append(contentsOf: second)
            }
            entries.append(VectorEntry(start: Int32(start), count: Int32(lexemes.count - start), position: Int32(min(position, 16_383))))
            tokens.append(CountedToken(lexemes[(start + 1)...]))
        }
        for (field, indexed) in columns.enumerated() {
            defer { if field == 0 { titleTokens = tokens.count - before } }
            let tag = fieldTags[field].utf8.first!
            var position = 0
            var column = indexed
            // Words as the scoring cuts them (a space that begins a grapheme with a mark is no cut).
            column.withUTF8 { bytes in
                var previousUnit: UnsafeBufferPointer<UInt8>.SubSequence?
                SearchText.forEachWord(in: bytes) { range in
                    position += 1
                    let word = bytes[range]
                    let unit = bytes[range.lowerBound] >= 0x80 && SearchText.isUnitScript(SearchText.scalar(at: range.lowerBound, in: bytes))
                    defer { previousUnit = unit ? word : nil }
                    if word.elementsEqual(mark) { return }
                    guard word.count <= longestToken else { return }
                    lexeme(tag, word, position: position)
                    if unit, let previousUnit, previousUnit.count + 1 + word.count <= longestToken {
                        lexeme(pairTags[field], previousUnit, word, position: position - 1)
                    }
                }
            }
        }
        return BinaryVector(lexemes: lexemes, entries: entries)
    }

    /// One lexeme met in a report's columns: its bytes in the report's run of lexemes, and its
    /// position (1 to 16 383; 0 for none).
    struct VectorEntry {
        var start: Int32
        var count: Int32
        var position: Int32
    }

    /// A vector in PostgreSQL's binary form of `tsvector`, as `tsvectorrecv` reads it: the number
    /// of lexemes, then each lexeme's bytes, a NUL, its number of positions and the positions,
    /// all big-endian. The lexemes are in byte order, each once, with their positions in order,
    /// each once and at most 256 of them, up to position 16 383: what `tsvectorin` makes of the
    /// literal, so the server stores the same value without parsing text.
    struct BinaryVector: PostgresNonThrowingEncodable, PostgresArrayEncodable {
        /// The encoded value.
        var bytes: [UInt8]

        static var psqlType: PostgresDataType { .tsvector }
        static var psqlFormat: PostgresFormat { .binary }
        static var psqlArrayType: PostgresDataType { .tsvectorArray }

        func encode<JSONEncoder: PostgresJSONEncoder>(into byteBuffer: inout ByteBuffer, context: PostgresEncodingContext<JSONEncoder>) {
            byteBuffer.writeBytes(bytes)
        }

        /// The vector of `entries`, whose bytes are in `lexemes`.
        init(lexemes: [UInt8], entries: [VectorEntry]) {
            guard !entries.isEmpty else {
                bytes = [0, 0, 0, 0]
                return
            }
            // At most: the count, and per entry its bytes, a NUL, a count and a position.
            let capacity = 4 + lexemes.count + 5 * entries.count
            bytes = lexemes.withUnsafeBufferPointer { lexemes in
                let base = lexemes.baseAddress!
                // Each entry with its first eight bytes as a big-endian number (zeros after a
                // shorter lexeme: no lexeme holds a NUL), so that most comparisons are of numbers.
                var keyed = entries.map { entry -> (head: UInt64, entry: VectorEntry) in
                    var head: UInt64 = 0
                    for k in 0..<Int(min(entry.count, 8)) { head |= UInt64(base[Int(entry.start) + k]) << (56 - 8 * k) }
                    return (head, entry)
                }
                // The order of the lexemes' bytes (0 for equal lexemes): equal heads of lexemes of
                // at most eight bytes are equal lexemes.
                func order(_ a: (head: UInt64, entry: VectorEntry), _ b: (head: UInt64, entry: VectorEntry)) -> Int32 {
                    if a.head != b.head { return a.head < b.head ? -1 : 1 }
                    let shorter = min(a.entry.count, b.entry.count)
                    if shorter > 8 {
                        let c = memcmp(base + Int(a.entry.start) + 8, base + Int(b.entry.start) + 8, Int(shorter) - 8)
                        if c != 0 { return c }
                    }
                    return a.entry.count - b.entry.count
                }
                keyed.sort { a, b in
                    let c = order(a, b)
                    return c != 0 ? c < 0 : a.entry.position < b.entry.position
                }
                return [UInt8](unsafeUninitializedCapacity: capacity) { out, written in
                    let out = out.baseAddress!
                    var w = 4, n = 0, i = 0
                    while i < keyed.count {
                        var j = i + 1
                        while j < keyed.count, order(keyed[i], keyed[j]) == 0 { j += 1 }
                        let lexeme = keyed[i].entry
                        (out + w).update(from: base + Int(lexeme.start), count: Int(lexeme.count))
                        w += Int(lexeme.count)
                        out[w] = 0
                        let countAt = w + 1
                        w += 3
                        var positions = 0, last: Int32 = 0
                        for k in i..<j where keyed[k].entry.position > 0 && keyed[k].entry.position != last {
                            last = keyed[k].entry.position
                            out[w] = UInt8(truncatingIfNeeded: last >> 8)
                            out[w + 1] = UInt8(truncatingIfNeeded: last)
                            w += 2
                            positions += 1
                            if positions == 256 || last == 16_383 { break }
                        }
                        out[countAt] = UInt8(positions >> 8)
                        out[countAt + 1] = UInt8(truncatingIfNeeded: positions)
                        n += 1
                        i = j
                    }
                    for k in 0..<4 { out[k] = UInt8(truncatingIfNeeded: n >> (24 - 8 * k)) }
                    written = w
                }
            }
        }
    }

    /// What the server makes of a vector `literal` and stores of a `binary` vector, each as
    /// `tsvectorsend` gives it back (a check of ``BinaryVector`` against `tsvectorin`).
    func serverForms(literal: String, binary: BinaryVector) throws(IndexError) -> (parsed: [UInt8], stored: [UInt8]) {
        try transaction(readOnly: false) { c in
            _ = try execute(c, "CREATE TEMPORARY TABLE sent(v tsvector) ON COMMIT DROP")
            var sent = PostgresBindings()
            sent.append(binary)
            _ = try execute(c, "INSERT INTO sent VALUES ($1)", sent)
            var parsed = PostgresBindings()
            parsed.append(literal)
            let row = try execute(c, "SELECT tsvectorsend($1::text::tsvector), (SELECT tsvectorsend(v) FROM sent)", parsed)[0]
            return (Array(try row[0].decode(ByteBuffer.self).readableBytesView), Array(try row[1].decode(ByteBuffer.self).readableBytesView))
        }
    }

    /// A binary vector (``BinaryVector``) as a `tsvector` literal: `'lexeme':1,2 'other'`.
    static func literal(_ binary: [UInt8]) -> String {
        var lexemes: [String] = []
        var i = 4
        while i < binary.count {
            let end = binary[i...].firstIndex(of: 0)!
            var lexeme = "'" + escapeLexeme(String(decoding: binary[i..<end], as: UTF8.self)[...]) + "'"
            let positions = Int(binary[end + 1]) << 8 | Int(binary[end + 2])
            i = end + 3
            for k in 0..<positions {
                lexeme += (k == 0 ? ":" : ",") + String(Int(binary[i]) << 8 | Int(binary[i + 1]))
                i += 2
            }
            lexemes.append(lexeme)
        }
        return lexemes.joined(separator: " ")
    }

    /// A prefix of at most ``countedPrefixBytes`` bytes in two integers, so that a report's
    /// prefixes are collected without an allocation each (NUL never occurs in the normalised
    /// text, so the zeros after the prefix end it).
    struct PackedPrefix: Hashable, Comparable, Sendable {
        var high: UInt64 = 0
        var low: UInt64 = 0

        /// The first 16 of `bytes`.
        init(_ bytes: some Collection<UInt8>) {
            for (i, byte) in bytes.prefix(16).enumerated() { self = appending(byte, at: i) }
        }

        static func < (a: PackedPrefix, b: PackedPrefix) -> Bool { (a.high, a.low) < (b.high, b.low) }

        /// Its first `n` bytes.
        func first(_ n: Int) -> PackedPrefix {
            var out = self
            if n < 8 {
                out.high = n == 0 ? 0 : high & ~(UInt64.max >> (8 * n))
                out.low = 0
            } else if n < 16 {
                out.low = n == 8 ? 0 : low & ~(UInt64.max >> (8 * (n - 8)))
            }
            return out
        }

        /// It with `byte` at `i` (which must be past its end, and below 16).
        func appending(_ byte: UInt8, at i: Int) -> PackedPrefix {
            var out = self
            if i < 8 { out.high |= UInt64(byte) << (56 - 8 * i) } else { out.low |= UInt64(byte) << (56 - 8 * (i - 8)) }
            return out
        }

        /// How many bytes it begins with that `other` begins with too.
        func sharedBytes(with other: PackedPrefix) -> Int {
            if high != other.high { return (high ^ other.high).leadingZeroBitCount / 8 }
            if low != other.low { return 8 + (low ^ other.low).leadingZeroBitCount / 8 }
            return 16
        }

        /// The byte at `i` (0 past the end).
        func byte(_ i: Int) -> UInt8 {
            UInt8(truncatingIfNeeded: i < 8 ? high >> (56 - 8 * i) : low >> (56 - 8 * (i - 8)))
        }

        /// The prefix as text.
        var text: String {
            String(decoding: Array((0..<16).lazy.map(byte).prefix { $0 != 0 }), as: UTF8.self)
        }
    }

    /// What decides a token's keys in `prefix_count`: its first ``countedPrefixBytes`` bytes, its
    /// length (up to one more: longer), and whether a scalar ends after those bytes. Its keys are
    /// its prefixes that end where a scalar ends and not with a space (a token holds a space
    /// before a mark, and such a prefix would read as a whole token's key), and the whole token
    /// and a space when that fits.
    struct CountedToken: Hashable, Comparable, Sendable {
        /// The first bytes.
        var head: PackedPrefix
        /// The length in bytes, at most ``countedPrefixBytes`` + 1.
        var count: UInt8
        /// Whether a scalar ends after the first ``countedPrefixBytes`` bytes.
        var scalarEndsAtLimit: Bool

        init(_ token: some RandomAccessCollection<UInt8>) {
            head = PackedPrefix(token)
            count = UInt8(min(token.count, countedPrefixBytes + 1))
            scalarEndsAtLimit = token.count == countedPrefixBytes
                || (token.count > countedPrefixBytes && token[token.index(token.startIndex, offsetBy: countedPrefixBytes)] & 0xC0 != 0x80)
        }

        /// In byte order; among tokens with the same first bytes, those after which a scalar ends
        /// first (so that the first of them has every key that the others have).
        static func < (a: CountedToken, b: CountedToken) -> Bool {
            if a.head != b.head { return a.head < b.head }
            if a.scalarEndsAtLimit != b.scalarEndsAtLimit { return a.scalarEndsAtLimit }
            return a.count < b.count
        }

        /// The keys of prefixes longer than `cut` bytes, and the whole token's.
        func keys(after cut: Int) -> [PackedPrefix] {
            var out: [PackedPrefix] = []
            let n = Int(count)
            if cut < min(n, countedPrefixBytes) {
                for length in (cut + 1)...min(n, countedPrefixBytes) where head.byte(length - 1) != 0x20 {
                    let ends = length == n || (length < countedPrefixBytes ? head.byte(length) & 0xC0 != 0x80 : scalarEndsAtLimit)
                    if ends { out.append(head.first(length)) }
                }
            }
            if n < countedPrefixBytes { out.append(head.first(n).appending(0x20, at: n)) }
            return out
        }

        /// Each distinct token of `tokens` (sorted in place) once, with the bytes it shares with
        /// the one before: a report's keys are the keys of each after those bytes, each once
        /// (sorted, a prefix shared with any earlier token is shared with the one just before,
        /// and where it ends a scalar in one it does in both).
        static func distinct(_ tokens: inout [CountedToken]) -> [(token: CountedToken, cut: Int)] {
            tokens.sort()
            var out: [(token: CountedToken, cut: Int)] = []
            var previous: CountedToken?
            for token in tokens where token != previous {
                out.append((token, previous.map { token.head.sharedBytes(with: $0.head) } ?? 0))
                previous = token
            }
            return out
        }
    }

    /// A token and the bytes it shares with the report's token before it (see
    /// ``CountedToken/distinct(_:)``): what a report adds to `prefix_count` is summed per such pair
    /// and expanded to keys once per run.
    struct TokenCut: Hashable, Sendable {
        var token: CountedToken
        var cut: UInt8
    }

    /// A token inside a quoted lexeme: `'` doubled, `\\` doubled, byte by byte (a quote that a
    /// mark follows is one grapheme, but still a quote to PostgreSQL).
    static func escapeLexeme(_ word: Substring) -> String {
        guard word.utf8.contains(where: { $0 == 0x27 || $0 == 0x5C }) else { return String(word) }
        var out: [UInt8] = []
        for byte in word.utf8 {
            if byte == 0x27 || byte == 0x5C { out.append(byte) }
            out.append(byte)
        }
        return String(decoding: out, as: UTF8.self)
    }

    func loadState() throws(IndexError) -> StoredState {
        heldVectors.reset(keeping: false)
        return try transaction(readOnly: true) { c in
            try wholeTables(c)
            keywordNumbers.reset(try execute(c, "SELECT id, key FROM keyword_key").map { (try $0[0].decode(Int32.self), try $0[1].decode(String.self)) })
            var state = StoredState()
            state.files = try loadFiles(c)
            for row in try execute(c, "SELECT ord, id, sig FROM report") {
                let id = try row[1].decode(String.self)
                state.reportSigs[try row[0].decode(Int.self)] = (id, try row[2].decode(Int64.self))
                state.reportIDs.insert(id)
            }
            for row in try execute(c, "SELECT key, value FROM meta WHERE key IN ('tree_sig', 'source')") {
                let value = try row[1].decode(String.self)
                if try row[0].decode(String.self) == "tree_sig" { state.treeSig = Int64(value) } else { state.sourceKey = value }
            }
            return state
        }
    }

    /// For the rest of the transaction, tables read whole are scanned in order (the sessions
    /// otherwise avoid sequential scans, see ``PostgresStore/sessionSettings(schema:)``).
    func wholeTables(_ c: PostgresConnection) throws {
        _ = try execute(c, "SET LOCAL enable_seqscan = on")
    }

    func loadFiles(_ c: PostgresConnection) throws -> [String: PDFFileRecord] {
        var files: [String: PDFFileRecord] = [:]
        for row in try execute(c, "SELECT path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error FROM file") {
            let path = try row[0].decode(String.self)
            let hash = try row[3].decode(ByteBuffer.self)
            files[path] = PDFFileRecord(
                path: path, size: Int(try row[1].decode(Int64.self)), modificationTime: try row[2].decode(Int64.self),
                contentHash: Array(hash.readableBytesView), title: try row[4].decode(String?.self), author: try row[5].decode(String?.self),
                keywords: try StringList.decode(try row[6].decode(String.self)), pageCount: try row[7].decode(Int?.self),
                warnings: try StringList.decode(try row[8].decode(String.self)), readError: try row[9].decode(String?.self))
        }
        return files
    }

    /// What ``ReportIndex/isCurrent(datasource:stamp:jobs:)`` needs: the source key, every file
    /// record in path order and the report count.
    func currentState() throws(IndexError) -> (String?, [PDFFileRecord], Int) {
        try transaction(readOnly: true) { c in
            try wholeTables(c)
            guard let key = try execute(c, "SELECT value FROM meta WHERE key = 'source'").first.map({ try $0[0].decode(String.self) }) else {
                return (nil, [], 0)
            }
            let files = try loadFiles(c)
            let count = try execute(c, "SELECT count(*) FROM report").first?[0].decode(Int.self) ?? 0
            return (key, files.keys.sorted().map { files[$0]! }, count)
        }
    }

    /// The datasource's structure: categories, and reports whose file is current.
    func writeStructure(plan: TreePlan, files: [String: PDFFileRecord], pending: Set<String>, stored: [Int: (id: String, sig: Int64)], categoriesChanged: Bool) throws(IndexError) {
        try transaction(readOnly: false) { c in
            // A cold build: some indexes go until the update's end (see `PostgresSchema.deferredIndexes`).
            let cold = try stored.isEmpty && execute(c, "SELECT NOT EXISTS (SELECT 1 FROM report)").first?[0].decode(Bool.self) == true
            if cold {
                for index in PostgresSchema.deferredIndexes { _ = try execute(c, index.drop) }
            }
            // Then every vector of the table is one this update writes (see `HeldVectors`).
            heldVectors.reset(keeping: cold)
            try bumpGeneration(c)
            let count = try execute(c, "SELECT count(*) FROM category").first?[0].decode(Int.self) ?? 0
            if categoriesChanged || count != plan.categories.count {
                _ = try execute(c, "DELETE FROM category")
                var binds = PostgresBindings()
                binds.append(plan.categories.map { Int32($0.ord) })
                binds.append(plan.categories.map { Self.text($0.id) })
                binds.append(plan.categories.map { Self.text($0.title) })
                binds.append(plan.categories.map { Int32($0.endOrd) })
                binds.append(plan.categories.map { Int32($0.parent ?? -1) })
                _ = try execute(c, """
                    INSERT INTO category(ord, id, title, end_ord, parent)
                    SELECT o, i, t, e, NULLIF(p, -1) FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[]) AS u(o, i, t, e, p)
                    """, binds)
            }
            var wanted: Set<Int> = []  // only asked when reports are stored
            var rewrite: [Int] = []
            var gone: [Int] = []
            for (i, report) in plan.reports.enumerated() {
                if !stored.isEmpty { wanted.insert(report.ord) }
                if let f = report.file, pending.contains(f) {
                    if let old = stored[report.ord], old.id != report.id { gone.append(report.ord) }
                    continue
                }
                rewrite.append(i)
            }
            for ord in stored.keys.sorted() where !wanted.contains(ord) { gone.append(ord) }
            try delete(c, gone)
            try rewriteReports(c, plan: plan, indices: rewrite, files: files, stored: stored)
        }
    }

    /// One batch: its files, and the reports that use them.
    func writeBatch(records: [PDFFileRecord], plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)]) throws(IndexError) {
        try transaction(readOnly: false) { c in
            try bumpGeneration(c)
            var binds = PostgresBindings()
            binds.append(records.map { Self.text($0.path) })
            binds.append(records.map { Int64($0.size) })
            binds.append(records.map { $0.modificationTime })
            binds.append(records.map { $0.contentHash.map { String(format: "%02x", $0) }.joined() })
            binds.append(records.map { Self.text($0.title ?? "") })
            binds.append(records.map { $0.title == nil })
            binds.append(records.map { Self.text($0.author ?? "") })
            binds.append(records.map { $0.author == nil })
            binds.append(records.map { Self.text(StringList.encode($0.keywords)) })
            binds.append(records.map { Int32($0.pageCount ?? -1) })
            binds.append(records.map { Self.text(StringList.encode($0.warnings)) })
            binds.append(records.map { Self.text($0.readError ?? "") })
            binds.append(records.map { $0.readError == nil })
            _ = try execute(c, """
                INSERT INTO file(path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error)
                SELECT p, s, m, decode(h, 'hex'), CASE WHEN tn THEN NULL ELSE t END, CASE WHEN an THEN NULL ELSE a END, k,
                       NULLIF(pg, -1), w, CASE WHEN en THEN NULL ELSE e END
                FROM unnest($1::text[], $2::bigint[], $3::bigint[], $4::text[], $5::text[], $6::bool[], $7::text[], $8::bool[],
                            $9::text[], $10::int[], $11::text[], $12::text[], $13::bool[]) AS u(p, s, m, h, t, tn, a, an, k, pg, w, e, en)
                ON CONFLICT (path) DO UPDATE SET size = excluded.size, mtime_ns = excluded.mtime_ns, sha256 = excluded.sha256,
                    title = excluded.title, author = excluded.author, keywords = excluded.keywords, pages = excluded.pages,
                    warnings = excluded.warnings, error = excluded.error
                """, binds)
            try rewriteReports(c, plan: plan, indices: indices, files: files, stored: stored)
        }
    }

    /// The end of an update: the indexes a cold build dropped (or a killed one left out) and the
    /// `posting` rows of the chunks that changed since the last update that finished
    /// (``makeMissingIndexes()``), then in one transaction the files no report uses go, the
    /// datasource's signature is written and the `posting` table is marked current.
    func finish(unreferenced: [String], treeSig: Int64, sourceKey: String?) throws(IndexError) {
        try makeMissingIndexes()
        try transaction(readOnly: false) { c in
            try bumpGeneration(c)
            try rebuildPostings(c)  // what changed before it: none after the above
            var binds = PostgresBindings()
            binds.append(unreferenced.map(Self.text))
            _ = try execute(c, "DELETE FROM file WHERE path = ANY($1::text[])", binds)
            _ = try execute(c, "DELETE FROM keyword_key k WHERE NOT EXISTS (SELECT 1 FROM keyword WHERE key_id = k.id)")
            var sig = PostgresBindings()
            sig.append(String(treeSig))
            _ = try execute(c, "INSERT INTO meta(key, value) VALUES ('tree_sig', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", sig)
            if let sourceKey {
                var source = PostgresBindings()
                source.append(Self.text(sourceKey))
                _ = try execute(c, "INSERT INTO meta(key, value) VALUES ('source', $1) ON CONFLICT (key) DO UPDATE SET value = excluded.value", source)
            } else {
                _ = try execute(c, "DELETE FROM meta WHERE key = 'source'")
            }
        }
    }

    /// Makes the ``PostgresSchema/deferredIndexes`` that are missing, then fresh statistics for the
    /// planner, and the `posting` rows of the chunks that changed, on two connections at once,
    /// about equal work on each for two cores: the GIN index over the vectors on one, the other
    /// indexes then the postings on the other, which begins them while the GIN index is still
    /// being made (each a transaction of its own; an index changes no answer, only its speed, and
    /// the postings are current in the state they were made from), each index by one process,
    /// with the memory a sort of a million reports' rows wants.
    func makeMissingIndexes() throws(IndexError) {
        let present = try transaction(readOnly: true) { c in
            var names = PostgresBindings()
            names.append(schema)
            names.append(PostgresSchema.deferredIndexes.map(\.name))
            return try execute(c, "SELECT indexname::text FROM pg_indexes WHERE schemaname = $1 AND indexname = ANY($2::text[])", names)
                .map { try $0[0].decode(String.self) }
        }
        let missing = PostgresSchema.deferredIndexes.filter { !present.contains($0.name) }
        @Sendable func making(_ indexes: [PostgresSchema.DeferredIndex], analysing tables: [String]) -> IndexError? {
            guard !indexes.isEmpty else { return nil }
            do throws(IndexError) {
                try transaction(readOnly: false) { c in
                    _ = try execute(c, "SET LOCAL maintenance_work_mem = '256MB'")
                    // One process per connection: a parallel sort's worker would take the other
                    // connection's core.
                    _ = try execute(c, "SET LOCAL max_parallel_maintenance_workers = 0")
                    for index in indexes { _ = try execute(c, index.create) }
                    for table in tables { _ = try execute(c, "ANALYZE \(table)") }
                }
                return nil
            } catch {
                return error
            }
        }
        let held = heldVectors.take()
        let others = Prepared { [self] () -> IndexError? in
            if let failure = making(missing.filter { $0.name != "search_v" }, analysing: ["report", "keyword", "prefix_count"]) { return failure }
            do throws(IndexError) {
                try transaction(readOnly: false) { c in try rebuildPostings(c, from: held) }
                return nil
            } catch {
                return error
            }
        }
        let failure = making(missing.filter { $0.name == "search_v" }, analysing: ["search"])
        if let error = [failure, others.wait()].compactMap({ $0 }).first { throw error }
    }

    /// Moves the index's generation on, in the writing transaction: readers make their in-memory
    /// tables (facets) again when it differs from theirs.
    func bumpGeneration(_ c: PostgresConnection) throws {
        _ = try execute(c, """
            INSERT INTO meta(key, value) VALUES ('generation', '1')
            ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text
            """)
    }

    func delete(_ c: PostgresConnection, _ ords: [Int]) throws {
        guard !ords.isEmpty else { return }
        var binds = PostgresBindings()
        binds.append(ords.map { Int32($0) })
        _ = try execute(c, "DELETE FROM report WHERE ord = ANY($1::int[])", binds)
        // The prefixes of the reports that go, counted down from their vectors (each lexeme is a
        // one-character tag and a token); a prefix no report has any more goes. A key whose first
        // report (or first in a title) goes is noted stale: its number stays, a bound (the reports
        // left begin no earlier), until the update's end sets it (`setStaleFirstReports`).
        _ = try execute(c, """
            WITH gone AS (DELETE FROM search WHERE ord = ANY($1::int[]) RETURNING ord, v),
            prefixes AS (\(Self.countedPrefixes(in: "gone"))),
            counts AS (SELECT prefix, count(*)::int AS n FROM prefixes GROUP BY 1),
            stale AS (
                INSERT INTO prefix_stale(prefix)
                SELECT p.prefix FROM prefix_count p JOIN counts USING (prefix)
                WHERE p.first_ord = ANY($1::int[]) OR p.title_first_ord = ANY($1::int[])
                ON CONFLICT DO NOTHING)
            UPDATE prefix_count p SET n = p.n - counts.n FROM counts WHERE p.prefix = counts.prefix
            """, binds)
        _ = try execute(c, "DELETE FROM prefix_count WHERE n <= 0")
        _ = try execute(c, "DELETE FROM keyword WHERE report = ANY($1::int[])", binds)
        try markPostingsDirty(c, ords.map { Int32($0) })
    }

    /// The numbers of the keyword keys (the table `keyword_key`) as the writer knows them: those
    /// stored when the update began, then each new key numbered (one more than the highest) in
    /// the order the batches write them.
    final class KeywordNumbers: @unchecked Sendable {
        private let lock = NSLock()
        private var numbers: [String: Int32] = [:]
        private var next: Int32 = 1

        /// Forgets the keys known and learns those stored, `(number, key)`.
        func reset(_ stored: [(Int32, String)]) {
            lock.withLock {
                numbers = Dictionary(stored.map { ($1, $0) }, uniquingKeysWith: min)
                next = (stored.map(\.0).max() ?? 0) + 1
            }
        }

        /// The number of each of `keys`, in order, and the keys numbered now (not known before),
        /// in the order met.
        func numbers(of keys: [String]) -> (ids: [Int32], new: [(id: Int32, key: String)]) {
            lock.withLock {
                var new: [(id: Int32, key: String)] = []
                let ids = keys.map { key in
                    if let known = numbers[key] { return known }
                    let id = next
                    next += 1
                    numbers[key] = id
                    new.append((id, key))
                    return id
                }
                return (ids, new)
            }
        }
    }

    /// One report's rows, made ready to bind.
    struct PreparedReport {
        var ord: Int32
        var id: String, title: String, path: String, categoryTitles: String, datasourceKeywords: String, keywords: String
        var file: String?
        var sig: Int64
        var columns: [String]
        var vector: BinaryVector
        var keys: [(key: String, display: String)]
    }

    /// The rows of the reports at `indices` whose signature differs from the stored one, made on
    /// every core (each worker a run of the reports with its own cache of normalised texts; the
    /// rows do not depend on the cache), in the order of `indices`; and what they add to each
    /// key's row of `prefix_count`.
    static func prepare(plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)])
        -> (reports: [PreparedReport], prefixCounts: [PackedPrefix: KeyTally])
    {
        let jobs = max(1, min(ProcessInfo.processInfo.activeProcessorCount, indices.count / 256))
        let size = (indices.count + jobs - 1) / max(1, jobs)
        let made = parallelMap(runs(of: indices, size: size), jobs: jobs) { run -> (reports: [PreparedReport], prefixCounts: [PackedPrefix: KeyTally]) in
            var texts = FieldTexts()
            // What the reports add per token and shared bytes (see `CountedToken.distinct`).
            var counts: [TokenCut: KeyTally] = [:]
            // The first report of the run with each title token.
            var titleFirst: [CountedToken: Int32] = [:]
            var tokensMet: [CountedToken] = []
            var titleTokens = 0
            var out: [PreparedReport] = []
            out.reserveCapacity(run.count)
            for i in run {
                let report = plan.reports[i]
                let record = report.file.flatMap { files[$0] }
                let sig = Writer.signature(report, record)
                if let old = stored[report.ord], old.sig == sig, old.id == report.id { continue }
                let keywords = ReportIndex.mergeKeywords(record?.keywords ?? [], report.keywords)
                let indexed = texts.columns(report, record, keywords)
                tokensMet.removeAll(keepingCapacity: true)
                let vector = vector(indexed, tokens: &tokensMet, titleTokens: &titleTokens)
                let ord = Int32(report.ord)
                for token in tokensMet[..<titleTokens] where titleFirst[token].map({ $0 > ord }) ?? true { titleFirst[token] = ord }
                for (token, cut) in CountedToken.distinct(&tokensMet) {
                    counts[TokenCut(token: token, cut: UInt8(cut)), default: KeyTally()].add(ord: ord)
                }
                let keys = texts.keywordKeys(keywords).map { (key: $0.key, display: text($0.keyword)) }
                out.append(PreparedReport(
                    ord: Int32(report.ord), id: text(report.id), title: text(report.title), path: text(report.storedPath),
                    categoryTitles: text(report.storedCategoryTitles), datasourceKeywords: text(StringList.encode(report.keywords)),
                    keywords: text(StringList.encode(keywords)), file: report.file.map(text), sig: sig, columns: indexed,
                    vector: vector, keys: keys))
            }
            var keys: [PackedPrefix: KeyTally] = [:]
            for (pair, tally) in counts {
                for key in pair.token.keys(after: Int(pair.cut)) { keys[key, default: KeyTally()].add(tally) }
            }
            for (token, ord) in titleFirst {
                for key in token.keys(after: 0) { keys[key, default: KeyTally()].addTitle(ord: ord) }
            }
            return (out, keys)
        }
        var counts: [PackedPrefix: KeyTally] = [:]
        for run in made {
            for (key, tally) in run.prefixCounts { counts[key, default: KeyTally()].add(tally) }
        }
        return (made.flatMap(\.reports), counts)
    }

    /// What some reports add to a key's row of `prefix_count`: how many of them hold it, the
    /// smallest report number (`ord`) among them, and among those that hold it in their title
    /// (`Int32.max` for none).
    struct KeyTally {
        var n: Int32 = 0
        var first = Int32.max
        var titleFirst = Int32.max

        /// Adds the tally of other reports (none of them among these).
        mutating func add(_ other: KeyTally) {
            n += other.n
            first = min(first, other.first)
            titleFirst = min(titleFirst, other.titleFirst)
        }

        /// Notes a report numbered `ord` that holds the key in its title (counted by ``add(ord:)``).
        mutating func addTitle(ord: Int32) {
            titleFirst = min(titleFirst, ord)
        }

        /// Counts one more report, numbered `ord`.
        mutating func add(ord: Int32) {
            n += 1
            first = min(first, ord)
        }
    }

    /// `indices` in order, cut into runs of `size` (the last may be shorter).
    static func runs(of indices: [Int], size: Int) -> [[Int]] {
        stride(from: 0, to: indices.count, by: max(1, size)).map { Array(indices[$0..<min($0 + size, indices.count)]) }
    }

    /// Reports prepared and written at a time by ``rewriteReports(_:plan:indices:files:stored:)``.
    static let writeChunk = 4_096

    /// The reports at `indices` of the plan whose signature differs from the stored one, in runs
    /// of ``writeChunk``, each in one statement per table; the next run is prepared on other
    /// threads while the server writes the last (the statements and their rows are those of one
    /// run after another).
    func rewriteReports(_ c: PostgresConnection, plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)]) throws {
        let runs = Self.runs(of: indices, size: Self.writeChunk)
        func preparing(_ run: [Int]) -> Prepared<(reports: [PreparedReport], prefixCounts: [PackedPrefix: KeyTally])> {
            Prepared { Self.prepare(plan: plan, indices: run, files: files, stored: stored) }
        }
        var next = runs.first.map(preparing)
        for k in runs.indices {
            let (prepared, prefixCounts) = next!.wait()
            next = k + 1 < runs.count ? preparing(runs[k + 1]) : nil
            do {
                try write(c, prepared, prefixCounts, stored: stored)
            } catch {
                _ = next?.wait()  // nothing outlives the update
                throw error
            }
        }
    }

    /// Work started on another thread, its result taken with ``wait()``.
    final class Prepared<R: Sendable>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: R?

        init(_ work: @escaping @Sendable () -> R) {
            DispatchQueue.global().async {
                self.result = work()
                self.done.signal()
            }
        }

        /// The result, once the work has finished (the semaphore orders its write before this read).
        func wait() -> R {
            done.wait()
            done.signal()
            return result!
        }
    }

    /// One run of prepared reports, in one statement per table.
    private func write(_ c: PostgresConnection, _ prepared: [PreparedReport], _ prefixCounts: [PackedPrefix: KeyTally], stored: [Int: (id: String, sig: Int64)]) throws {
        var ords: [Int32] = [], ids: [String] = [], titles: [String] = [], paths: [String] = [], categoryTitles: [String] = []
        var datasourceKeywords: [String] = [], keywordLists: [String] = [], fileNames: [String] = [], fileNull: [Bool] = [], sigs: [Int64] = []
        var columns: [[String]] = Array(repeating: [], count: 5)
        var vectors: [BinaryVector] = []
        var keyKeys: [String] = [], keyReports: [Int32] = [], keyDisplays: [String] = []
        for report in prepared {
            ords.append(report.ord)
            ids.append(report.id)
            titles.append(report.title)
            paths.append(report.path)
            categoryTitles.append(report.categoryTitles)
            datasourceKeywords.append(report.datasourceKeywords)
            keywordLists.append(report.keywords)
            fileNames.append(report.file ?? "")
            fileNull.append(report.file == nil)
            sigs.append(report.sig)
            for k in 0..<5 { columns[k].append(report.columns[k]) }
            vectors.append(report.vector)
            for (key, display) in report.keys {
                keyKeys.append(key)
                keyReports.append(report.ord)
                keyDisplays.append(display)
            }
        }
        guard !ords.isEmpty else { return }
        // Only a stored report can have rows: a report is written once per update (with its
        // file's batch, or with the structure when its file is current).
        try delete(c, ords.map { Int($0) }.filter { stored[$0] != nil })
        // The statements are sent as their values are ready, without waiting for the one before
        // (the connection runs them in order), so that the server writes one table while the
        // next one's values are encoded; then each is waited for, in order (after a failure the
        // ones after it fail, and the transaction rolls back).
        var sent: [EventLoopFuture<PostgresQueryResult>] = []
        func send(_ sql: String, _ binds: PostgresBindings) {
            sent.append(c.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: logger))
        }
        var binds = PostgresBindings()
        binds.append(PackedArray(ords))
        binds.append(PackedArray(ids))
        binds.append(PackedArray(titles))
        binds.append(PackedArray(paths))
        binds.append(PackedArray(categoryTitles))
        binds.append(PackedArray(datasourceKeywords))
        binds.append(PackedArray(keywordLists))
        binds.append(PackedArray(fileNames))
        binds.append(PackedArray(fileNull))
        binds.append(PackedArray(sigs))
        for k in 0..<5 { binds.append(PackedArray(columns[k])) }
        send("""
            INSERT INTO report(ord, id, title, path, category_titles, datasource_keywords, keywords, file, sig,
                               s_title, s_pdf_title, s_keywords, s_author, s_category)
            SELECT o, i, t, p, ct, dk, k, CASE WHEN fn THEN NULL ELSE f END, s, s1, s2, s3, s4, s5
            FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::bool[],
                        $10::bigint[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[])
                 AS u(o, i, t, p, ct, dk, k, f, fn, s, s1, s2, s3, s4, s5)
            """, binds)
        var vectorBinds = PostgresBindings()
        vectorBinds.append(PackedArray(ords))
        vectorBinds.append(PackedArray(vectors))
        send("INSERT INTO search(ord, v) SELECT * FROM unnest($1::int[], $2::tsvector[])", vectorBinds)
        var dirty = PostgresBindings()
        dirty.append(PackedArray(ords))
        send(Self.markDirtySQL, dirty)
        // In key order (the dictionary's order is no order).
        let counts = prefixCounts.sorted { $0.key < $1.key }
        var countBinds = PostgresBindings()
        countBinds.append(PackedArray(counts.map(\.key.text)))
        countBinds.append(PackedArray(counts.map(\.value.n)))
        countBinds.append(PackedArray(counts.map(\.value.first)))
        countBinds.append(PackedArray(counts.map(\.value.titleFirst)))
        send("""
            INSERT INTO prefix_count(prefix, n, first_ord, title_first_ord)
            SELECT p, n, f, nullif(t, \(Int32.max)) FROM unnest($1::text[], $2::int[], $3::int[], $4::int[]) AS u(p, n, f, t)
            ON CONFLICT (prefix) DO UPDATE SET n = prefix_count.n + excluded.n, first_ord = least(prefix_count.first_ord, excluded.first_ord),
                title_first_ord = least(prefix_count.title_first_ord, excluded.title_first_ord)
            """, countBinds)
        let (keyIDs, newKeys) = keywordNumbers.numbers(of: keyKeys)
        if !newKeys.isEmpty {
            var newBinds = PostgresBindings()
            newBinds.append(PackedArray(newKeys.map(\.id)))
            newBinds.append(PackedArray(newKeys.map(\.key)))
            send("INSERT INTO keyword_key(id, key) SELECT * FROM unnest($1::int[], $2::text[])", newBinds)
        }
        if !keyIDs.isEmpty {
            var keyBinds = PostgresBindings()
            keyBinds.append(PackedArray(keyIDs))
            keyBinds.append(PackedArray(keyReports))
            keyBinds.append(PackedArray(keyDisplays))
            send("INSERT INTO keyword(key_id, report, display) SELECT * FROM unnest($1::int[], $2::int[], $3::text[])", keyBinds)
        }
        for statement in sent { _ = try statement.wait() }
        heldVectors.add(prepared)
    }
}
