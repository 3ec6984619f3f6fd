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
        binds.append(ords)
        _ = try execute(c, """
            INSERT INTO posting_dirty(chunk)
            SELECT DISTINCT o >> (SELECT value::int FROM meta WHERE key = 'posting_chunk_bits') FROM unnest($1::int[]) o
            ON CONFLICT DO NOTHING
            """, binds)
    }

    /// Writes the rows of every changed chunk again from its reports' vectors, then marks the
    /// table current at the index's generation, in the caller's writing transaction (beside the
    /// GIN index's build, then again in the update's last transaction, where no chunk is left
    /// and only the generation moved). A chunk's rows are made on another thread while the next
    /// chunk's vectors are read.
    func rebuildPostings(_ c: PostgresConnection) throws {
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
            func making(_ k: Int) throws -> Prepared<(tokens: [String], ords: [ByteBuffer])> {
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
                    insert.append(made.tokens)
                    insert.append([Int32](repeating: dirty[k], count: made.tokens.count))
                    insert.append(made.ords)
                    _ = try execute(c, "INSERT INTO posting(token, chunk, ords) SELECT * FROM unnest($1::text[], $2::int[], $3::bytea[])", insert)
                } catch {
                    _ = next.wait()  // nothing outlives the update
                    throw error
                }
            }
            _ = try execute(c, "DELETE FROM posting_dirty")
        }
        _ = try execute(c, """
            INSERT INTO meta(key, value) SELECT 'posting_generation', value FROM meta WHERE key = 'generation'
            ON CONFLICT (key) DO UPDATE SET value = excluded.value
            """)
    }

    /// The rows of one chunk from its reports' vectors (`tsvectorsend`'s form: the number of
    /// lexemes, big-endian, then each lexeme's bytes, a NUL, its number of positions and the
    /// positions, two bytes each), in token order (bytes, as `COLLATE "C"`): each token without
    /// its one-byte tag, with the reports that hold it.
    static func postings(of vectors: [(ord: Int32, bytes: ByteBuffer)], chunk: Int, bits: Int) -> (tokens: [String], ords: [ByteBuffer]) {
        var table = TokenTable()
        for (ord, vector) in vectors {
            vector.withUnsafeReadableBytes { raw in
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
                    i += 2 + 2 * (Int(raw[i]) << 8 | Int(raw[i + 1]))
                    if end - start > 1 { table.add(UnsafeRawBufferPointer(start: base + start + 1, count: end - start - 1), ord: ord) }
                }
            }
        }
        let order = table.sortedIndices()
        return (order.map { table.token($0) }, order.map { encodeChunk(table.ords[$0], chunk: chunk, bits: bits) })
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

        /// Notes that the report numbered `ord` (no lower than any before) holds `token`.
        mutating func add(_ token: UnsafeRawBufferPointer, ord: Int32) {
            var h: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
            for byte in token { h = (h ^ UInt64(byte)) &* 0x100_0000_01b3 }
            let mask = slots.count - 1
            var slot = Int(truncatingIfNeeded: h) & mask
            while slots[slot] >= 0 {
                let k = Int(slots[slot])
                if hashes[k] == h, lengths[k] == token.count, equal(k, token) {
                    if ords[k].last != ord { ords[k].append(ord) }  // a token in several fields
                    return
                }
                slot = (slot + 1) & mask
            }
            slots[slot] = Int32(starts.count)
            starts.append(bytes.count)
            lengths.append(token.count)
            hashes.append(h)
            bytes.append(contentsOf: token)
            ords.append([ord])
            if starts.count * 2 > slots.count { grow() }
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

    /// A query's terms as ranges of `posting.token` (at least `lo`, below `hi`): a token, or a
    /// pair's token (``pairToken(_:)``), alone when it is whole, with every token it begins when
    /// it is being typed. Nil when a term is a phrase that is no pair, when there is no term, or
    /// when a keyword restricts the query: then the matches come from the GIN index.
    static func postingRanges(_ query: SearchQuery, _ filter: ReportIndex.Restriction) -> [(lo: String, hi: String)]? {
        guard !query.terms.isEmpty, filter.keywordKeys.isEmpty, !filter.impossible else { return nil }
        var ranges: [(lo: String, hi: String)] = []
        for term in query.terms {
            guard term.tokens.count == 1 || isPair(term) else { return nil }
            let token = isPair(term) ? pairToken(term) : term.tokens[0]
            if token.utf8.contains(0) { return nil }  // not a text value
            if token.utf8.count > longestToken {
                ranges.append((token, token))  // no lexeme holds it: nothing
            } else if !term.isPrefix {
                ranges.append((token, token + "\u{1}"))  // no token holds U+0000, so only itself
            } else if let next = successor(token) {
                ranges.append((token, next))
            } else {
                return nil
            }
        }
        return ranges
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

    /// The reports that match every range (``postingRanges(_:_:)``) and lie in `range`, as the
    /// words of a bitmap per chunk, in chunk order.
    func postingMatches(_ c: PostgresConnection, _ ranges: [(lo: String, hi: String)], bits: Int, within range: ClosedRange<Int>?)
        throws -> [(chunk: Int, words: [UInt64])]
    {
        var binds = PostgresBindings()
        binds.append(ranges.map(\.lo))
        binds.append(ranges.map(\.hi))
        var chunks = ""
        if let range {
            binds.append(Int32(clamping: range.lowerBound >> bits))
            binds.append(Int32(clamping: range.upperBound >> bits))
            chunks = " AND p.chunk BETWEEN $3 AND $4"
        }
        let rows = try execute(c, """
            SELECT q.i::int, p.chunk, p.ords FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS q(lo, hi, i)
            JOIN posting p ON p.token >= q.lo AND p.token < q.hi\(chunks)
            """, binds)
        let wordsPerChunk = (1 << bits) / 64
        // Per term, the union of its tokens' reports, per chunk.
        var terms = [[Int: [UInt64]]](repeating: [:], count: ranges.count)
        for row in rows {
            let term = try row[0].decode(Int.self) - 1
            let chunk = try row[1].decode(Int.self)
            var ords = try row[2].decode(ByteBuffer.self)
            guard terms.indices.contains(term) else { continue }
            var words = terms[term][chunk] ?? [UInt64](repeating: 0, count: wordsPerChunk)
            if ords.readableBytes == wordsPerChunk * 8 {
                for w in 0..<wordsPerChunk { words[w] |= ords.readInteger(endianness: .little, as: UInt64.self) ?? 0 }
            } else {
                while let offset = ords.readInteger(endianness: .little, as: UInt16.self) {
                    let i = Int(offset)
                    if i >> 6 < wordsPerChunk { words[i >> 6] |= 1 << UInt64(i & 63) }
                }
            }
            terms[term][chunk] = words
        }
        var matches: [(chunk: Int, words: [UInt64])] = []
        guard let first = terms.first else { return [] }
        for chunk in first.keys.sorted() {
            var words = first[chunk]!
            for other in terms.dropFirst() {
                guard let more = other[chunk] else {
                    words = []
                    break
                }
                for w in words.indices { words[w] &= more[w] }
            }
            guard !words.isEmpty else { continue }
            if let range {
                let base = chunk << bits
                for w in words.indices where words[w] != 0 {
                    for b in 0..<64 where words[w] & (1 << UInt64(b)) != 0 && !range.contains(base + w * 64 + b) {
                        words[w] &= ~(1 << UInt64(b))
                    }
                }
            }
            matches.append((chunk, words))
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

    /// The number of reports that match `query` under `filter`, counted from the `posting` table
    /// when it is current in the caller's snapshot and the query is one it answers
    /// (``postingRanges(_:_:)``); nil otherwise.
    func postingTotal(_ c: PostgresConnection, _ query: SearchQuery, _ filter: ReportIndex.Restriction) throws -> Int? {
        guard let ranges = Self.postingRanges(query, filter), let bits = try currentPostingBits(c) else { return nil }
        return try postingMatches(c, ranges, bits: bits, within: filter.range).reduce(0) { sum, chunk in
            chunk.words.reduce(sum) { $0 + $1.nonzeroBitCount }
        }
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
                for (token, ords) in zip(made.tokens, made.ords) { truth.append("\(token)|\(chunk)|\(Array(ords.readableBytesView))") }
            }
            let stored = try execute(c, "SELECT token, chunk, ords FROM posting ORDER BY token, chunk").map { row in
                "\(try row[0].decode(String.self))|\(try row[1].decode(Int.self))|\(Array(try row[2].decode(ByteBuffer.self).readableBytesView))"
            }
            let trueRows = Set(truth), storedRows = Set(stored)
            for line in stored where !trueRows.contains(line) { problems.append("stored, not true: \(line)") }
            for line in truth where !storedRows.contains(line) { problems.append("true, not stored: \(line)") }
            return problems
        }
    }
}
