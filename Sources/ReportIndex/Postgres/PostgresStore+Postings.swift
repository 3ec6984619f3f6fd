import Foundation
import NIOCore
import PostgresNIO

// The `posting` table: each token's reports, per chunk of reports, so that the matches of a query
// without phrases (its facets, and the total of several words) come from a few rows instead of a
// visit to every match's row of `search` (a GIN index has no index-only scan). Written at the end
// of an update from the vectors of the chunks that changed, and used only while it is current.
extension PostgresStore {
    /// The chunk of a new index: 2^14 = 16 384 reports (a row holds a bitmap of 2 KiB, or a list
    /// of two-byte offsets when that is shorter).
    static let postingChunkBits = 14

    /// Notes the chunks of the reports numbered `ords` as changed (in the writing transaction).
    func markPostingsDirty(_ c: PostgresConnection, _ ords: [Int32]) throws {
        guard !ords.isEmpty else { return }
        var binds = PostgresBindings()
        binds.append(PackedArray(ords))
        _ = try execute(c, Self.markDirtySQL, binds)
    }

    /// The statement of ``markPostingsDirty(_:_:)``: `$1` the reports' numbers.
    static let markDirtySQL = """
        INSERT INTO posting_dirty(chunk)
        SELECT DISTINCT o >> (SELECT value::int FROM meta WHERE key = 'posting_chunk_bits') FROM unnest($1::int[]) o
        ON CONFLICT DO NOTHING
        """

    /// Writes the rows of every changed chunk again from its reports' vectors, then marks the
    /// table current at the index's generation, in the caller's writing transaction (beside the
    /// GIN index's build, then again in the update's last transaction, where no chunk is left
    /// and only the generation moved). A chunk's rows are made on another thread while the next
    /// chunk's vectors are read: from the table, or from `held` when given (every vector the
    /// table holds, sorted by report number: those a cold build wrote, ``HeldVectors``).
    func rebuildPostings(_ c: PostgresConnection, from held: [(ord: Int32, bytes: ArraySlice<UInt8>)]? = nil) throws {
        let bits = try execute(c, "SELECT value::int FROM meta WHERE key = 'posting_chunk_bits'").first?[0].decode(Int.self) ?? Self.postingChunkBits
        let dirty = try execute(c, "SELECT chunk FROM posting_dirty ORDER BY chunk").map { try $0[0].decode(Int32.self) }
        if !dirty.isEmpty {
            var binds = PostgresBindings()
            binds.append(dirty)
            _ = try execute(c, "DELETE FROM posting WHERE chunk = ANY($1::int[])", binds)
            func vectors(_ chunk: Int32) throws -> [(ord: Int32, bytes: ByteBuffer)] {
                var range = PostgresBindings()
                range.append(chunk << Int32(bits))
                range.append((chunk + 1) << Int32(bits))
                return try execute(c, "SELECT ord, tsvectorsend(v) FROM search WHERE ord >= $1 AND ord < $2 ORDER BY ord", range)
                    .map { (try $0[0].decode(Int32.self), try $0[1].decode(ByteBuffer.self)) }
            }
            func making(_ k: Int) throws -> Prepared<ChunkRows> {
                if let held {
                    let first = dirty[k] << Int32(bits), end = (dirty[k] + 1) << Int32(bits)
                    let chunk = Array(held[Self.firstIndex(in: held, atLeast: first)..<Self.firstIndex(in: held, atLeast: end)])
                    return Prepared { Self.postings(of: chunk, chunk: Int(dirty[k]), bits: bits) }
                }
                let read = try vectors(dirty[k])
                return Prepared { Self.postings(of: read, chunk: Int(dirty[k]), bits: bits) }
            }
            var next = try making(0)
            for k in dirty.indices {
                let made = next.wait()
                do {
                    if k + 1 < dirty.count { next = try making(k + 1) }
                    guard !made.tokens.isEmpty else { continue }
                    var insert = PostgresBindings()
                    insert.append(PackedArray(made.tokens))
                    insert.append(PackedArray([Int32](repeating: dirty[k], count: made.tokens.count)))
                    insert.append(PackedArray(made.ords))
                    insert.append(PackedArray(made.positions))
                    insert.append(PackedArray(made.firsts))
                    insert.append(PackedArray(made.titleFirsts))
                    _ = try execute(c, """
                        INSERT INTO posting(token, chunk, ords, pos, first_ord, title_first_ord)
                        SELECT t, c, o, nullif(p, ''::bytea), f, nullif(tf, \(Int32.max))
                        FROM unnest($1::text[], $2::int[], $3::bytea[], $4::bytea[], $5::int[], $6::int[]) AS u(t, c, o, p, f, tf)
                        """, insert)
                } catch {
                    _ = next.wait()  // nothing outlives the update
                    throw error
                }
            }
            _ = try execute(c, "DELETE FROM posting_dirty")
        }
        try setStaleFirstReports(c)
        _ = try execute(c, """
            INSERT INTO meta(key, value) SELECT 'posting_generation', value FROM meta WHERE key = 'generation'
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
    }

    /// Bytes of a vector in `tsvectorsend`'s form: read back from the server, or kept by the
    /// writer (``HeldVectors``).
    protocol VectorBytes {
        func withVectorBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R
    }

    /// One chunk's rows of `posting`, in token order: each token, its reports
    /// (``encodeChunk(_:chunk:bits:)``), their positions (``TokenTable/positions(_:)``; empty
    /// for a token that keeps none), its first report, and its first in a title (`Int32.max`:
    /// none).
    struct ChunkRows {
        var tokens: [String] = []
        var ords: [ByteBuffer] = []
        var positions: [ByteBuffer] = []
        var firsts: [Int32] = []
        var titleFirsts: [Int32] = []
    }

    /// Sets the first report, and the first in a title, of every key noted in `prefix_stale`
    /// from the `posting` rows (current for every chunk: called after the changed chunks' rows
    /// are written), in the caller's writing transaction, and empties the table. A key's reports
    /// are those of the tokens it begins (a whole token's key, `token ` with its space: that
    /// token alone); the keys' ranges of tokens, merged, are read in one statement, each token's
    /// first reports over its chunks.
    func setStaleFirstReports(_ c: PostgresConnection) throws {
        let keys = try execute(c, "SELECT prefix FROM prefix_stale ORDER BY prefix").map { try $0[0].decode(String.self) }
        guard !keys.isEmpty else { return }
        let ranges = keys.map { key -> TokenRange? in
            // The space's byte, not the last character (a space may join one before it).
            key.utf8.last == 0x20 ? Self.tokenRange(String(decoding: key.utf8.dropLast(), as: UTF8.self), isPrefix: false) : Self.tokenRange(key, isPrefix: true)
        }
        // The ranges merged where they overlap (a key's range holds those of the keys it begins).
        var merged: [TokenRange] = []
        for range in ranges.compactMap({ $0 }).sorted(by: { Self.precedes($0.lo, $1.lo) }) {
            if let last = merged.last, !Self.precedes(last.hi, range.lo) {
                if Self.precedes(last.hi, range.hi) { merged[merged.count - 1].hi = range.hi }
            } else {
                merged.append(range)
            }
        }
        var binds = PostgresBindings()
        binds.append(merged.map(\.lo))
        binds.append(merged.map(\.hi))
        let rows = try execute(c, """
            SELECT p.token, min(p.first_ord), coalesce(min(p.title_first_ord), \(Int32.max))
            FROM unnest($1::text[], $2::text[]) AS r(lo, hi) JOIN posting p ON p.token >= r.lo AND p.token < r.hi
            GROUP BY p.token ORDER BY p.token
            """, binds)
        var tokens: [[UInt8]] = []
        var firsts: [Int32] = []
        var titleFirsts: [Int32] = []
        for row in rows {
            tokens.append(Array(try row[0].decode(String.self).utf8))
            firsts.append(try row[1].decode(Int32.self))
            titleFirsts.append(try row[2].decode(Int32.self))
        }
        // Per key, the least of its tokens' first reports (tokens in byte order, as `COLLATE "C"`).
        var setKeys: [String] = []
        var setFirsts: [Int32] = []
        var setTitleFirsts: [Int32] = []
        for (key, range) in zip(keys, ranges) {
            guard let range else { continue }
            let lo = Array(range.lo.utf8), hi = Array(range.hi.utf8)
            var a = 0, b = tokens.count
            while a < b {
                let m = (a + b) / 2
                if tokens[m].lexicographicallyPrecedes(lo) { a = m + 1 } else { b = m }
            }
            var first = Int32.max, titleFirst = Int32.max
            var k = a
            while k < tokens.count, tokens[k].lexicographicallyPrecedes(hi) {
                first = min(first, firsts[k])
                titleFirst = min(titleFirst, titleFirsts[k])
                k += 1
            }
            guard first != Int32.max else { continue }  // no report holds it: its count is gone
            setKeys.append(key)
            setFirsts.append(first)
            setTitleFirsts.append(titleFirst)
        }
        var update = PostgresBindings()
        update.append(setKeys)
        update.append(setFirsts)
        update.append(setTitleFirsts)
        _ = try execute(c, """
            UPDATE prefix_count p SET first_ord = u.f, title_first_ord = nullif(u.t, \(Int32.max))
            FROM unnest($1::text[], $2::int[], $3::int[]) AS u(k, f, t) WHERE p.prefix = u.k
            """, update)
        _ = try execute(c, "DELETE FROM prefix_stale")
    }

    /// Whether `a` comes before `b` in byte order (`COLLATE "C"`).
    static func precedes(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    /// The rows of one chunk from its reports' vectors (`tsvectorsend`'s form: the number of
    /// lexemes, big-endian, then each lexeme's bytes, a NUL, its number of positions and the
    /// positions, two bytes each, big-endian, the weight in the top two bits), in token order
    /// (bytes, as `COLLATE "C"`): each token without its one-byte tag, with the reports that hold
    /// it, and for a pair's token (two characters of a script written without spaces, a lexeme
    /// tagged with one of ``pairTags``) the positions where each holds it.
    static func postings(of vectors: [(ord: Int32, bytes: some VectorBytes)], chunk: Int, bits: Int) -> ChunkRows {
        var table = TokenTable()
        let firstTag = pairTags[0], lastTag = pairTags[pairTags.count - 1]
        let titleTag = fieldTags[0].utf8.first!, titlePairTag = pairTags[0]
        for (ord, vector) in vectors {
            vector.withVectorBytes { raw in
                let n = raw.count
                guard n >= 4, let base = raw.baseAddress else { return }
                let count = Int(raw[0]) << 24 | Int(raw[1]) << 16 | Int(raw[2]) << 8 | Int(raw[3])
                var i = 4
                for _ in 0..<count {
                    guard i < n, let nul = memchr(base + i, 0, n - i) else { return }
                    let end = base.distance(to: UnsafeRawPointer(nul))
                    let start = i
                    i = end + 1
                    guard i + 2 <= n else { return }
                    let positions = min(Int(raw[i]) << 8 | Int(raw[i + 1]), (n - i - 2) / 2)
                    let first = i + 2
                    i = first + 2 * positions
                    guard end - start > 1 else { continue }
                    let token = UnsafeRawBufferPointer(start: base + start + 1, count: end - start - 1)
                    let tag = raw[start]
                    let title = tag == titleTag || tag == titlePairTag
                    if tag >= firstTag, tag <= lastTag {
                        table.add(token, ord: ord, title: title, field: Int(tag - firstTag), positions: UnsafeRawBufferPointer(start: base + first, count: 2 * positions))
                    } else {
                        table.add(token, ord: ord, title: title)
                    }
                }
            }
        }
        var rows = ChunkRows()
        for k in table.sortedIndices() {
            rows.tokens.append(table.token(k))
            rows.ords.append(encodeChunk(table.ords[k], chunk: chunk, bits: bits))
            rows.positions.append(ByteBuffer(bytes: table.positions(k)))
            rows.firsts.append(table.ords[k][0])
            rows.titleFirsts.append(table.titleFirsts[k])
        }
        return rows
    }

    /// Tokens met in a chunk's vectors, each once (an open-addressing table over their bytes in
    /// one buffer), with the reports that hold them in the order met.
    struct TokenTable {
        private var bytes: [UInt8] = []
        private var starts: [Int] = []
        private var lengths: [Int] = []
        private var hashes: [UInt64] = []
        /// The reports of each token, by its number.
        private(set) var ords: [[Int32]] = []
        private var slots = [Int32](repeating: -1, count: 1 << 12)

        /// The positions of each token, by its number (empty for a token never added with
        /// them): for each of its reports in order, how many (two bytes), then each position (four
        /// bytes: the field's number in ``SearchField`` order times 2^16 plus the position), all
        /// little-endian. See ``positions(_:)``.
        private var positionBytes: [[UInt8]] = []
        /// How many of each token's reports have their number of positions in `positionBytes`.
        private var reportsWithPositions: [Int] = []

        /// The first report that holds each token in its title, by its number (`Int32.max`: none).
        private(set) var titleFirsts: [Int32] = []

        /// Notes that the report numbered `ord` (no lower than any before) holds `token` (in its
        /// title when `title`), in the field numbered `field` at `positions` (two-byte positions
        /// as `tsvectorsend` writes them: big-endian, the weight in the top two bits) when they
        /// are given.
        mutating func add(_ token: UnsafeRawBufferPointer, ord: Int32, title: Bool = false, field: Int = 0, positions held: UnsafeRawBufferPointer? = nil) {
            let k = number(token, ord: ord)
            if title { titleFirsts[k] = min(titleFirsts[k], ord) }
            guard let held else { return }
            pad(k)
            let at = positionBytes[k].count - 2 - 4 * Int(lastCount[k])  // the last report's number
            let old = Int(positionBytes[k][at]) | Int(positionBytes[k][at + 1]) << 8
            let total = min(old + held.count / 2, Int(UInt16.max))
            positionBytes[k][at] = UInt8(total & 0xFF)
            positionBytes[k][at + 1] = UInt8(total >> 8)
            for p in 0..<(total - old) {
                let value = UInt32(field) << 16 | (UInt32(held[2 * p]) << 8 | UInt32(held[2 * p + 1])) & 0x3FFF
                positionBytes[k].append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)])
            }
            lastCount[k] = UInt16(total)
        }

        /// The number of positions of each token's last report in `positionBytes`.
        private var lastCount: [UInt16] = []

        /// Gives every report of the token numbered `k` its number of positions (0 for those
        /// added without any).
        private mutating func pad(_ k: Int) {
            while reportsWithPositions[k] < ords[k].count {
                positionBytes[k].append(contentsOf: [0, 0])
                reportsWithPositions[k] += 1
                lastCount[k] = 0
            }
        }

        /// The positions of the token numbered `k` as stored (`posting.pos`): empty when it was
        /// never added with them, else a number of positions for each of its reports, in order.
        mutating func positions(_ k: Int) -> [UInt8] {
            guard reportsWithPositions[k] > 0 else { return [] }
            pad(k)
            return positionBytes[k]
        }

        /// The number of `token`, added when new, with `ord` among its reports.
        private mutating func number(_ token: UnsafeRawBufferPointer, ord: Int32) -> Int {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for byte in token { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 {
                let k = Int(slots[slot])
                if hashes[k] == h, lengths[k] == token.count, equal(k, token) {
                    if ords[k].last != ord { ords[k].append(ord) }  // a token in several fields
                    return k
                }
                slot = (slot + 1) & mask
            }
            let k = starts.count
            slots[slot] = Int32(k)
            starts.append(bytes.count)
            lengths.append(token.count)
            hashes.append(h)
            bytes.append(contentsOf: token)
            ords.append([ord])
            positionBytes.append([])
            reportsWithPositions.append(0)
            lastCount.append(0)
            titleFirsts.append(Int32.max)
            if starts.count * 2 > slots.count { grow() }
            return k
        }

        private func equal(_ k: Int, _ token: UnsafeRawBufferPointer) -> Bool {
            guard let other = token.baseAddress else { return lengths[k] == 0 }
            return bytes.withUnsafeBufferPointer { memcmp($0.baseAddress! + starts[k], other, lengths[k]) == 0 }
        }

        private mutating func grow() {
            slots = [Int32](repeating: -1, count: slots.count * 2)
            let mask = slots.count - 1
            for k in hashes.indices {
                var slot = Int(truncatingIfNeeded: hashes[k]) & mask
                while slots[slot] >= 0 { slot = (slot + 1) & mask }
                slots[slot] = Int32(k)
            }
        }

        /// The token numbered `k`.
        func token(_ k: Int) -> String {
            String(decoding: bytes[starts[k]..<starts[k] + lengths[k]], as: UTF8.self)
        }

        /// The tokens' numbers in byte order of the tokens.
        func sortedIndices() -> [Int] {
            bytes.withUnsafeBufferPointer { b in
                Array(starts.indices).sorted { x, y in
                    let c = memcmp(b.baseAddress! + starts[x], b.baseAddress! + starts[y], min(lengths[x], lengths[y]))
                    return c != 0 ? c < 0 : lengths[x] < lengths[y]
                }
            }
        }
    }

    /// The index of the first of `held` (sorted by report number) numbered at least `ord`.
    static func firstIndex(in held: [(ord: Int32, bytes: ArraySlice<UInt8>)], atLeast ord: Int32) -> Int {
        var lo = 0, hi = held.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if held[mid].ord < ord { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The vectors that a cold build (a datasource without reports when the update began) wrote,
    /// kept by the writer so that the `posting` rows at its end are made from them instead of
    /// read back from the server. Dropped when they pass ``limit`` bytes (the rows are then made
    /// from the table, as after any other update).
    final class HeldVectors: @unchecked Sendable {
        /// The most bytes of vectors kept: 1 GiB (a million reports of the bench library hold
        /// about 565 MB).
        static let limit = 1 << 30

        private let lock = NSLock()
        private var vectors: [(ord: Int32, bytes: ArraySlice<UInt8>)]?
        private var bytes = 0

        /// Starts keeping the vectors written from now on (`keeping`), or stops; drops those kept.
        func reset(keeping: Bool) {
            lock.withLock {
                vectors = keeping ? [] : nil
                bytes = 0
            }
        }

        /// Keeps the vectors of reports just written, when keeping.
        func add(_ reports: [PreparedReport]) {
            lock.withLock {
                guard vectors != nil else { return }
                // One buffer for the run's vectors (their own arrays go: a million arrays kept
                // would scatter the heap).
                var run: [UInt8] = []
                run.reserveCapacity(reports.reduce(0) { $0 + $1.vector.bytes.count })
                var ends: [Int] = []
                for report in reports {
                    run.append(contentsOf: report.vector.bytes)
                    ends.append(run.count)
                }
                var start = 0
                for (report, end) in zip(reports, ends) {
                    vectors!.append((report.ord, run[start..<end]))
                    start = end
                }
                bytes += run.count
                if bytes > Self.limit {
                    vectors = nil
                    bytes = 0
                }
            }
        }

        /// The vectors kept, sorted by report number, and stops keeping; nil when none were kept.
        func take() -> [(ord: Int32, bytes: ArraySlice<UInt8>)]? {
            lock.withLock {
                defer {
                    vectors = nil
                    bytes = 0
                }
                return vectors?.sorted { $0.ord < $1.ord }
            }
        }
    }

    /// A chunk's reports as stored: a bitmap of `2^bits` bits (bit `i` of byte `i / 8` for the
    /// chunk's report `i`) when that is shorter than their offsets, else the offsets in order,
    /// two bytes each, little-endian. A value as long as the bitmap is a bitmap.
    static func encodeChunk(_ ords: [Int32], chunk: Int, bits: Int) -> ByteBuffer {
        let bitmapBytes = (1 << bits) / 8
        let base = Int32(chunk << bits)
        var out = ByteBuffer()
        if ords.count * 2 < bitmapBytes {
            out.reserveCapacity(ords.count * 2)
            for ord in ords { out.writeInteger(UInt16(ord - base), endianness: .little) }
        } else {
            var bitmap = [UInt8](repeating: 0, count: bitmapBytes)
            for ord in ords {
                let i = Int(ord - base)
                bitmap[i >> 3] |= 1 << UInt8(i & 7)
            }
            out.writeBytes(bitmap)
        }
        return out
    }

    /// A range of `posting.token`: at least `lo`, below `hi`.
    struct TokenRange: Equatable {
        var lo: String
        var hi: String
    }

    /// A query's terms as the `posting` table answers them: each a range of tokens
    /// (``TokenRange``), or for a phrase of three or more tokens of scripts written without
    /// spaces, the ranges of its pairs' tokens, matched at consecutive positions. A range is a
    /// token, or a pair's token (``pairToken(_:)``), alone when it is whole, with every token it
    /// begins when it is being typed (a phrase's last pair, when its last token is). Nil when a
    /// term is another phrase or one longer than ``longestPhrase``, when there is no term, or when
    /// a keyword restricts the query: then the matches come from the GIN index.
    static func postingTerms(_ query: SearchQuery, _ filter: ReportIndex.Restriction) -> [[TokenRange]]? {
        guard !query.terms.isEmpty, filter.keywordKeys.isEmpty, !filter.impossible else { return nil }
        var terms: [[TokenRange]] = []
        for term in query.terms {
            if term.tokens.count == 1 || isPair(term) {
                let token = isPair(term) ? pairToken(term) : term.tokens[0]
                guard let range = tokenRange(token, isPrefix: term.isPrefix) else { return nil }
                terms.append([range])
                continue
            }
            guard term.tokens.count <= longestPhrase else { return nil }  // it matches nothing
            var ranges: [TokenRange] = []
            for i in term.tokens.indices.dropLast() {
                let pair = SearchQuery.Term(tokens: [term.tokens[i], term.tokens[i + 1]], isPrefix: term.isPrefix && i + 2 == term.tokens.count)
                guard isPair(pair), let range = tokenRange(pairToken(pair), isPrefix: pair.isPrefix) else { return nil }
                ranges.append(range)
            }
            terms.append(ranges)
        }
        return terms
    }

    /// The range of the tokens that `token` matches: itself, or every token it begins when
    /// `isPrefix`. Nil when it cannot be a text value, or when no string is above every one it
    /// begins.
    static func tokenRange(_ token: String, isPrefix: Bool) -> TokenRange? {
        if token.utf8.contains(0) { return nil }  // not a text value
        if token.utf8.count > longestToken { return TokenRange(lo: token, hi: token) }  // no lexeme holds it: nothing
        if !isPrefix { return TokenRange(lo: token, hi: token + "\u{1}") }  // no token holds U+0000, so only itself
        return successor(token).map { TokenRange(lo: token, hi: $0) }
    }

    /// The least string above every string that begins with `s` in code-point order: its last
    /// scalar that can grow, grown by one (past the surrogates), the rest dropped. Nil when
    /// every scalar is U+10FFFF.
    static func successor(_ s: String) -> String? {
        var scalars = Array(s.unicodeScalars)
        while let last = scalars.popLast() {
            var value = last.value + 1
            if value == 0xD800 { value = 0xE000 }
            if let next = Unicode.Scalar(value) {
                scalars.append(next)
                var out = String.UnicodeScalarView()
                out.append(contentsOf: scalars)
                return String(out)
            }
        }
        return nil
    }

    /// The reports that match every term (``postingTerms(_:_:)``) and lie in `range`, as the
    /// words of a bitmap per chunk, in chunk order: a term's reports are the union of its
    /// tokens' rows; a phrase's, those that hold its pairs at consecutive positions of a field.
    func postingMatches(_ c: PostgresConnection, _ terms: [[TokenRange]], bits: Int, within range: ClosedRange<Int>?)
        throws -> [(chunk: Int, words: [UInt64])]
    {
        // One range per token of every term; a phrase's rows with their positions.
        var flat: [(term: Int, token: Int)] = []
        var binds = PostgresBindings()
        for (t, ranges) in terms.enumerated() { flat += ranges.indices.map { (t, $0) } }
        binds.append(terms.flatMap { $0.map(\.lo) })
        binds.append(terms.flatMap { $0.map(\.hi) })
        binds.append(terms.flatMap { ranges in ranges.map { _ in ranges.count > 1 } })
        var chunks = ""
        if let range {
            binds.append(Int32(clamping: range.lowerBound >> bits))
            binds.append(Int32(clamping: range.upperBound >> bits))
            chunks = " AND p.chunk BETWEEN $4 AND $5"
        }
        let rows = try execute(c, """
            SELECT q.i::int, p.chunk, p.ords, CASE WHEN q.phrase THEN p.pos END
            FROM unnest($1::text[], $2::text[], $3::bool[]) WITH ORDINALITY AS q(lo, hi, phrase, i)
            JOIN posting p ON p.token >= q.lo AND p.token < q.hi AND (NOT q.phrase OR p.pos IS NOT NULL)\(chunks)
            """, binds)
        let wordsPerChunk = (1 << bits) / 64
        // Per term, the union of its tokens' reports, per chunk; per token of a phrase, its rows.
        var union = [[Int: [UInt64]]](repeating: [:], count: terms.count)
        var phraseRows = terms.map { [[Int: [PostingRow]]](repeating: [:], count: $0.count > 1 ? $0.count : 0) }
        for row in rows {
            let i = try row[0].decode(Int.self) - 1
            let chunk = try row[1].decode(Int.self)
            guard flat.indices.contains(i) else { continue }
            let (term, token) = flat[i]
            let posting = PostingRow(ords: try row[2].decode(ByteBuffer.self), positions: try row[3].decode(ByteBuffer?.self), wordsPerChunk: wordsPerChunk)
            if terms[term].count > 1 {
                guard posting.positions != nil else { continue }
                phraseRows[term][token][chunk, default: []].append(posting)
            } else {
                var words = union[term][chunk] ?? [UInt64](repeating: 0, count: wordsPerChunk)
                posting.addReports(to: &words)
                union[term][chunk] = words
            }
        }
        for (term, tokens) in phraseRows.enumerated() where !tokens.isEmpty {
            union[term] = Self.phraseMatches(tokens, wordsPerChunk: wordsPerChunk)
        }
        var matches: [(chunk: Int, words: [UInt64])] = []
        guard let first = union.first else { return [] }
        for chunk in first.keys.sorted() {
            var words = first[chunk]!
            for other in union.dropFirst() {
                guard let more = other[chunk] else {
                    words = []
                    break
                }
                for w in words.indices { words[w] &= more[w] }
            }
            guard !words.isEmpty else { continue }
            if let range {
                for w in words.indices where words[w] != 0 { words[w] &= Self.mask(keeping: range, inWordAt: chunk << bits + w * 64) }
            }
            matches.append((chunk, words))
        }
        return matches
    }

    /// The bits of a word of reports numbered from `start` (bit `i` is report `start + i`) that
    /// lie in `range`.
    static func mask(keeping range: ClosedRange<Int>, inWordAt start: Int) -> UInt64 {
        let lo = range.lowerBound - start, hi = range.upperBound - start
        guard lo <= 63, hi >= 0 else { return 0 }
        let fromLow: UInt64 = lo <= 0 ? ~0 : ~0 << UInt64(lo)
        let toHigh: UInt64 = hi >= 63 ? ~0 : ~0 >> UInt64(63 - hi)
        return fromLow & toHigh
    }

    /// One row of `posting` as read: its reports (``encodeChunk(_:chunk:bits:)``) and, for a
    /// token of a phrase, their positions (``TokenTable/positions(_:)``).
    struct PostingRow {
        var ords: ByteBuffer
        var positions: ByteBuffer?
        let wordsPerChunk: Int

        /// Whether the row holds its reports as a bitmap of the chunk (else as two-byte offsets).
        var isBitmap: Bool { ords.readableBytes == wordsPerChunk * 8 }

        /// Passes each of the row's reports (its offset in the chunk) to `body`, in order.
        func forEachReport(_ body: (Int) -> Void) {
            ords.withUnsafeReadableBytes { o in
                if isBitmap {
                    PostgresStore.forEachSetBit(words: wordsPerChunk, { UInt64(littleEndian: o.loadUnaligned(fromByteOffset: $0 * 8, as: UInt64.self)) }) {
                        body($0)
                        return true
                    }
                } else {
                    for k in 0..<o.count / 2 { body(Int(UInt16(littleEndian: o.loadUnaligned(fromByteOffset: 2 * k, as: UInt16.self)))) }
                }
            }
        }

        /// Sets the bits of the row's reports in a chunk's `words`.
        func addReports(to words: inout [UInt64]) {
            guard isBitmap else {
                forEachReport { i in if i >> 6 < words.count { words[i >> 6] |= 1 << UInt64(i & 63) } }
                return
            }
            let count = min(wordsPerChunk, words.count)
            words.withUnsafeMutableBufferPointer { out in
                ords.withUnsafeReadableBytes { o in
                    for w in 0..<count { out[w] |= UInt64(littleEndian: o.loadUnaligned(fromByteOffset: w * 8, as: UInt64.self)) }
                }
            }
        }

        /// Appends a key for each position of each of the row's reports, in order: the report's
        /// offset in the chunk times 2^19, plus the position's field times 2^16 and position
        /// (``TokenTable/positions(_:)``), plus `shift`.
        func appendKeys(shift: UInt64, to keys: inout [UInt64]) {
            guard let positions else { return }
            positions.withUnsafeReadableBytes { p in
                var at = 0
                forEachReport { report in
                    guard at + 2 <= p.count else { return }
                    let n = Int(p[at]) | Int(p[at + 1]) << 8
                    at += 2
                    let end = min(at + 4 * n, p.count - (p.count - at) % 4)
                    let base = UInt64(report) << 19 &+ shift
                    while at < end {
                        keys.append(base &+ UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt32.self))))
                        at += 4
                    }
                }
            }
        }
    }

    /// Passes the number of each set bit of `count` words (`word(w)` is word `w`) to `body`, in
    /// order (bit `i` of word `w` is `64 w + i`), while `body` returns true; false when it stopped.
    @discardableResult
    @inline(__always)
    static func forEachSetBit(words count: Int, _ word: (Int) -> UInt64, _ body: (Int) throws -> Bool) rethrows -> Bool {
        for w in 0..<count {
            var rest = word(w)
            while rest != 0 {
                guard try body(w &* 64 &+ rest.trailingZeroBitCount) else { return false }
                rest &= rest &- 1
            }
        }
        return true
    }

    /// Per chunk, the reports that hold a phrase's pairs at consecutive positions of one field:
    /// `pairs` holds each pair's rows per chunk (several for a pair being typed). Pair `i`'s
    /// positions are keys (``PostingRow/appendKeys(shift:to:)``) less `i`, so that a report holds
    /// the phrase where every pair's keys meet. A position (at most 16 383) plus a place within a
    /// phrase of up to ``longestPhrase`` tokens stays below 2^16, in its report and field, so keys
    /// meet only at consecutive positions; a longer phrase matches nothing.
    static func phraseMatches(_ pairs: [[Int: [PostingRow]]], wordsPerChunk: Int) -> [Int: [UInt64]] {
        var matches: [Int: [UInt64]] = [:]
        guard let first = pairs.first, pairs.count < longestPhrase else { return matches }
        let shift = UInt64(pairs.count)
        var common: [UInt64] = []
        var keys: [UInt64] = []
        var met: [UInt64] = []
        for chunk in first.keys.sorted() {
            common.removeAll(keepingCapacity: true)
            for (i, pair) in pairs.enumerated() {
                guard let rows = pair[chunk] else {
                    common.removeAll()
                    break
                }
                keys.removeAll(keepingCapacity: true)
                for row in rows { row.appendKeys(shift: shift - UInt64(i), to: &keys) }
                if rows.count > 1 { keys.sort() }
                if i == 0 {
                    swap(&common, &keys)
                } else {
                    met.removeAll(keepingCapacity: true)
                    var x = 0, y = 0
                    while x < common.count, y < keys.count {
                        if common[x] < keys[y] { x += 1 } else if common[x] > keys[y] { y += 1 } else {
                            met.append(common[x])
                            x += 1
                            y += 1
                        }
                    }
                    swap(&common, &met)
                }
                if common.isEmpty { break }
            }
            guard !common.isEmpty else { continue }
            var words = [UInt64](repeating: 0, count: wordsPerChunk)
            for key in common {
                let report = Int((key - shift) >> 19)
                if report >> 6 < wordsPerChunk { words[report >> 6] |= 1 << UInt64(report & 63) }
            }
            matches[chunk] = words
        }
        return matches
    }

    /// Writes the `posting` table again in chunks of 2^`bits` reports (tests: chunks smaller than
    /// their libraries).
    func repartitionPostings(bits: Int) throws(IndexError) {
        try transaction(readOnly: false) { c in
            var binds = PostgresBindings()
            binds.append(String(bits))
            _ = try execute(c, "UPDATE meta SET value = $1 WHERE key = 'posting_chunk_bits'", binds)
            _ = try execute(c, "DELETE FROM posting")
            _ = try execute(c, "INSERT INTO posting_dirty(chunk) SELECT DISTINCT ord >> $1::int FROM search ON CONFLICT DO NOTHING", binds)
            try rebuildPostings(c)
        }
    }

    /// The chunk size of the `posting` table when it is current in the snapshot `c` reads (made
    /// at the index's generation, of 2^3 to 2^16 reports); nil when it is not.
    func currentPostingBits(_ c: PostgresConnection) throws -> Int? {
        try postingState(c).bits
    }

    /// The index's generation and ``currentPostingBits(_:)``, in one statement.
    func postingState(_ c: PostgresConnection) throws -> (generation: Int64, bits: Int?) {
        let row = try execute(c, """
            SELECT (SELECT value FROM meta WHERE key = 'generation'), (SELECT value FROM meta WHERE key = 'posting_generation'),
                   (SELECT value FROM meta WHERE key = 'posting_chunk_bits')
            """).first
        let generation = try row?[0].decode(String?.self)
        let current = try row?[1].decode(String?.self)
        let bits = try row?[2].decode(String?.self).flatMap { Int($0) }
        return (Int64(generation ?? "0") ?? 0, generation != nil && current == generation ? bits.flatMap { (3...16).contains($0) ? $0 : nil } : nil)
    }

    /// The `posting` table as one snapshot sees it for one query: whether it is current, and the
    /// query's matches from it (``postingTerms(_:_:)``, ``postingMatches(_:_:bits:within:)``),
    /// each read once when first asked, so that a search's total, candidates and facets share
    /// them.
    final class PostingLookup {
        private let store: PostgresStore
        private let connection: PostgresConnection
        /// The query and its restriction.
        let query: SearchQuery
        let filter: ReportIndex.Restriction
        private var state: (generation: Int64, bits: Int?)?
        private var known: PostingMatches??

        init(_ store: PostgresStore, _ connection: PostgresConnection, _ query: SearchQuery, _ filter: ReportIndex.Restriction) {
            self.store = store
            self.connection = connection
            self.query = query
            self.filter = filter
        }

        /// The index's generation and the table's chunk bits when it is current
        /// (``postingState(_:)``).
        func current() throws -> (generation: Int64, bits: Int?) {
            if let state { return state }
            let read = try store.postingState(connection)
            state = read
            return read
        }

        /// The query's matches, when the table is current and answers the query; nil otherwise.
        func matches() throws -> PostingMatches? {
            if let known { return known }
            var found: PostingMatches?
            if let terms = PostgresStore.postingTerms(query, filter), let bits = try current().bits {
                found = PostingMatches(bits: bits, chunks: try store.postingMatches(connection, terms, bits: bits, within: filter.range))
            }
            known = .some(found)
            return found
        }
    }

    /// Reports as bitmaps per chunk of 2^`bits` reports, in chunk order.
    struct PostingMatches {
        var bits: Int
        var chunks: [(chunk: Int, words: [UInt64])]

        /// How many.
        var count: Int { chunks.reduce(0) { sum, chunk in chunk.words.reduce(sum) { $0 + $1.nonzeroBitCount } } }

        /// The first `n` numbered `from` or above, in order.
        func first(_ n: Int, from: Int = 0) -> [Int32] {
            var out: [Int32] = []
            for (chunk, words) in chunks where (chunk + 1) << bits > from {
                let base = chunk << bits
                let more = PostgresStore.forEachSetBit(words: words.count, { words[$0] }) { offset in
                    guard base + offset >= from else { return true }
                    guard out.count < n else { return false }
                    out.append(Int32(base + offset))
                    return true
                }
                if !more { break }
            }
            return out
        }
    }

    /// The number of reports that match `query` under `filter`, counted from the `posting` table
    /// in a read-only snapshot of its own (``PostingLookup/matches()``); nil when it does not
    /// answer (tests: that the table is the path taken, and gives the true total).
    func postingAnswer(_ query: SearchQuery, _ filter: ReportIndex.Restriction) throws(IndexError) -> Int? {
        try transaction(readOnly: true) { c in try PostingLookup(self, c, query, filter).matches()?.count }
    }

    /// The rows of `posting` that differ from what the vectors of `search` give, and the
    /// table's state (``rebuildPostings(_:)`` run, no chunk left changed): none when it is right.
    func postingProblems() throws(IndexError) -> [String] {
        try transaction(readOnly: true) { c in
            try wholeTables(c)
            var problems: [String] = []
            guard let bits = try currentPostingBits(c) else { return ["the posting table is not current"] }
            if try execute(c, "SELECT count(*) FROM posting_dirty").first?[0].decode(Int.self) != 0 { problems.append("chunks left changed") }
            let rows = try execute(c, "SELECT ord, tsvectorsend(v) FROM search ORDER BY ord")
            var byChunk: [Int: [(ord: Int32, bytes: ByteBuffer)]] = [:]
            for row in rows {
                let ord = try row[0].decode(Int32.self)
                byChunk[Int(ord) >> bits, default: []].append((ord, try row[1].decode(ByteBuffer.self)))
            }
            var truth: [String] = []
            for chunk in byChunk.keys.sorted() {
                let made = Self.postings(of: byChunk[chunk]!, chunk: chunk, bits: bits)
                for k in made.tokens.indices {
                    truth.append("\(made.tokens[k])|\(chunk)|\(Array(made.ords[k].readableBytesView))|\(Array(made.positions[k].readableBytesView))|"
                                 + "\(made.firsts[k])|\(made.titleFirsts[k])")
                }
            }
            let stored = try execute(c, """
                SELECT token, chunk, ords, coalesce(pos, ''::bytea), first_ord, coalesce(title_first_ord, \(Int32.max)) FROM posting ORDER BY token, chunk
                """).map { row in
                "\(try row[0].decode(String.self))|\(try row[1].decode(Int.self))|\(Array(try row[2].decode(ByteBuffer.self).readableBytesView))|"
                    + "\(Array(try row[3].decode(ByteBuffer.self).readableBytesView))|\(try row[4].decode(Int32.self))|\(try row[5].decode(Int32.self))"
            }
            let trueRows = Set(truth), storedRows = Set(stored)
            for line in stored where !trueRows.contains(line) { problems.append("stored, not true: \(line)") }
            for line in truth where !storedRows.contains(line) { problems.append("true, not stored: \(line)") }
            return problems
        }
    }
}

extension ByteBuffer: PostgresStore.VectorBytes {
    func withVectorBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeReadableBytes(body) }
}

extension ArraySlice: PostgresStore.VectorBytes where Element == UInt8 {
    func withVectorBytes<R>(_ body: (UnsafeRawBufferPointer) -> R) -> R { withUnsafeBytes(body) }
}
