import CLibCrypto
import Dispatch
import Foundation
import GRDB
import ReportLibrary

/// What an update did.
public struct IndexUpdate: Sendable {
    /// Reports in the index after the update (the datasource's reports).
    public var reports = 0
    /// PDF files read (new, or changed in size, time and content).
    public var read = 0
    /// PDF files not read: the index's record was current (same size and time, or same content).
    public var unchanged = 0
    /// Reports dropped because they are no longer in the datasource.
    public var removed = 0
    /// Warnings over the datasource's PDFs: the reader's warnings and files it could not read.
    public var warnings = 0
    /// Whether the update wrote to the index file (false when nothing changed, and for an index
    /// opened to read only).
    public var wrote = false
    /// Every PDF of the datasource, by the path the datasource resolves, as the index now knows it.
    public var files: [String: PDFFileRecord] = [:]
}

/// Progress of an update's reading, for a progress bar.
public struct IndexProgress: Sendable {
    /// PDF files read so far.
    public var done: Int
    /// PDF files to read in this update.
    public var total: Int
}

extension ReportIndex {
    /// Brings the index up to date with `tree`: reads the PDFs that are new or changed (on `jobs`
    /// threads), drops reports that are gone, and rewrites only the reports whose datasource entry
    /// or PDF changed. Each batch of files read is committed with the reports that use them, so a
    /// killed update keeps its work. An index opened to read only is not written: the PDFs it does
    /// not know are read, and the answer is the same.
    ///
    /// - Parameters:
    ///   - tree: the validated datasource.
    ///   - jobs: threads that read PDFs (default: every core).
    ///   - progress: called on the caller's thread after each batch.
    public func update(
        with tree: ReportTree, jobs: Int = ProcessInfo.processInfo.activeProcessorCount,
        progress: ((IndexProgress) -> Void)? = nil
    ) throws(IndexError) -> IndexUpdate {
        let jobs = max(1, jobs)
        let plan = TreePlan(tree)
        let stored: StoredState
        if let postgres { stored = try postgres.loadState() } else { stored = try read { db in try StoredState.load(db) } }

        // Which files need reading: new, or not the size and time recorded.
        let stamps = parallelMap(plan.files, jobs: jobs) { FileStamp.of($0) }
        var files: [String: PDFFileRecord] = [:]
        var toRead: [String] = []
        for (path, stamp) in zip(plan.files, stamps) {
            if let record = stored.files[path], record.modificationTime >= 0,
               stamp.map({ $0.size == record.size && $0.modificationTime == record.modificationTime }) ?? (record.size == -1)
            {
                files[path] = record
            } else {
                toRead.append(path)
            }
        }

        var result = IndexUpdate()
        result.reports = plan.reports.count
        if !stored.reportIDs.isEmpty {
            let newIDs = Set(plan.reports.map(\.id))
            result.removed = stored.reportIDs.filter { !newIDs.contains($0) }.count
        }
        let referenced = Set(plan.files)
        let unreferencedFiles = stored.files.keys.filter { !referenced.contains($0) }.sorted()
        let treeSig = plan.signature
        let upToDate = toRead.isEmpty && unreferencedFiles.isEmpty && stored.treeSig == treeSig
        // The datasource file as loaded: ``isCurrent(datasource:stamp:jobs:)`` later tells from it,
        // without loading the datasource, that nothing changed.
        let sourceKey = tree.sourceStamp.map { Self.sourceKey(tree.sourceFile, $0) }

        if !upToDate, isWritable, let postgres {
            try postgres.writeStructure(plan: plan, files: files, pending: Set(toRead), stored: stored.reportSigs, categoriesChanged: stored.treeSig != treeSig)
        } else if !upToDate, isWritable {
            // The datasource's structure: categories, and reports whose file is current.
            try write { db in
                try Writer.syncCategories(db, plan: plan, changed: stored.treeSig != treeSig)
                try Writer.syncReports(db, plan: plan, files: files, pending: Set(toRead), stored: stored.reportSigs)
            }
        }

        // Read in batches; each batch committed with the reports that use its files.
        let batch = max(jobs * 8, 32)
        var done = 0
        var reportsByFile: [String: [Int]] = [:]
        if !toRead.isEmpty {
            for (i, report) in plan.reports.enumerated() { if let f = report.file { reportsByFile[f, default: []].append(i) } }
        }
        var start = 0
        while start < toRead.count {
            let paths = Array(toRead[start..<min(start + batch, toRead.count)])
            start += paths.count
            let records = parallelMap(paths, jobs: jobs) { PDFFileReader.read($0, previous: stored.files[$0]) }
            for record in records {
                if let old = stored.files[record.path], old.contentHash == record.contentHash, old.readError == record.readError,
                   old.title == record.title, old.author == record.author, old.keywords == record.keywords, old.pageCount == record.pageCount
                {
                    result.unchanged += 1
                } else {
                    result.read += 1
                }
                files[record.path] = record
            }
            if isWritable {
                var affected: [Int] = []
                for record in records { affected.append(contentsOf: reportsByFile[record.path] ?? []) }
                affected.sort()
                try commitBatch(records, affected: affected, plan: plan, files: files, stored: stored)
            }
            done += paths.count
            progress?(IndexProgress(done: done, total: toRead.count))
        }
        result.unchanged += plan.files.count - toRead.count

        if isWritable, !upToDate || (sourceKey != nil && sourceKey != stored.sourceKey) {
            try finishUpdate(unreferenced: unreferencedFiles, treeSig: treeSig, sourceKey: sourceKey)
            result.wrote = true
        }
        result.files = files
        result.warnings = plan.files.reduce(0) { total, path in
            let record = files[path]
            return total + (record?.warnings.count ?? 0) + (record?.readError == nil ? 0 : 1)
        }
        return result
    }
}

extension ReportIndex {
    /// Commits one batch of files read, with the reports that use them (`affected`, in order), in
    /// one transaction of either store.
    func commitBatch(_ records: [PDFFileRecord], affected: [Int], plan: TreePlan, files: [String: PDFFileRecord],
                     stored: StoredState) throws(IndexError) {
        if let postgres {
            try postgres.writeBatch(records: records, plan: plan, indices: affected, files: files, stored: stored.reportSigs)
            return
        }
        try write { db in
            for record in records { try Writer.upsertFile(db, record) }
            try Writer.rewriteReports(db, plan: plan, indices: affected, files: files, stored: stored.reportSigs)
        }
    }

    /// The update's last transaction: files no report uses go, and the datasource's signature
    /// (and the source file's key, which says the datasource is unchanged) is written last.
    func finishUpdate(unreferenced: [String], treeSig: Int64, sourceKey: String?) throws(IndexError) {
        if let postgres {
            try postgres.finish(unreferenced: unreferenced, treeSig: treeSig, sourceKey: sourceKey)
            return
        }
        try write { db in
            for path in unreferenced { try db.execute(sql: "DELETE FROM file WHERE path = ?", arguments: [path]) }
            try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES('tree_sig', ?)", arguments: [treeSig])
            if let sourceKey {
                try db.execute(sql: "INSERT OR REPLACE INTO meta(key, value) VALUES('source', ?)", arguments: [sourceKey])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = 'source'")
            }
        }
    }
}

/// The datasource as the index stores it: reports in order with their category paths, the
/// distinct PDF files, categories with their subtree ranges, and a signature of all of it.
struct TreePlan {
    struct Report {
        var ord: Int
        var id: String
        var title: String
        var path: [String]
        var categoryTitles: [String]
        /// `path` and `categoryTitles` as their columns store them (``StringList``), made once
        /// per category and shared by its reports.
        var storedPath: String
        var storedCategoryTitles: String
        var keywords: [String]
        var file: String?
        var parent: Int
    }

    struct Category {
        var ord: Int
        var id: String
        var title: String
        var endOrd: Int
        var parent: Int?
    }

    var reports: [Report] = []
    var categories: [Category] = []
    var files: [String] = []
    var signature: Int64 = 0

    init(_ tree: ReportTree) {
        let nodes = tree.nodes
        var end = Array(nodes.indices)
        for i in nodes.indices.reversed() {
            if let p = nodes[i].parent { end[p] = max(end[p], end[i]) }
        }
        // The path and category titles of each category's children, made once per category and
        // shared by its reports.
        var childPaths: [[String]] = Array(repeating: [], count: nodes.count)
        var childTitles: [[String]] = Array(repeating: [], count: nodes.count)
        var storedLists: [(path: String, titles: String)?] = Array(repeating: nil, count: nodes.count)
        let rootLists = (path: StringList.encode([]), titles: StringList.encode([]))
        var seenFiles: Set<String> = []
        var sig = Signature()
        sig.add(tree.sourceFile)
        for i in nodes.indices {
            let parent = nodes[i].parent
            sig.add(nodes[i].id, nodes[i].title, nodes[i].resolvedFile ?? "\u{0}")
            sig.add(Int64(parent ?? -1))
            sig.add(nodes[i].keywords)
            switch nodes[i].kind {
            case .category:
                categories.append(Category(ord: i, id: nodes[i].id, title: nodes[i].title, endOrd: end[i], parent: parent))
                if let parent {
                    childPaths[i] = childPaths[parent] + [nodes[i].id]
                    childTitles[i] = childTitles[parent] + [nodes[i].title]
                } else {
                    childPaths[i] = [nodes[i].id]
                }
                storedLists[i] = (StringList.encode(childPaths[i]), StringList.encode(childTitles[i]))
            case .report:
                let lists = parent.flatMap { storedLists[$0] } ?? rootLists
                reports.append(Report(
                    ord: i, id: nodes[i].id, title: nodes[i].title, path: parent.map { childPaths[$0] } ?? [],
                    categoryTitles: parent.map { childTitles[$0] } ?? [], storedPath: lists.path, storedCategoryTitles: lists.titles,
                    keywords: nodes[i].keywords, file: nodes[i].resolvedFile, parent: parent ?? 0))
                if let f = nodes[i].resolvedFile, seenFiles.insert(f).inserted { files.append(f) }
            }
        }
        signature = sig.value
    }
}

/// What the index holds before an update.
struct StoredState {
    var files: [String: PDFFileRecord] = [:]
    var reportSigs: [Int: (id: String, sig: Int64)] = [:]
    var reportIDs: Set<String> = []
    var treeSig: Int64?
    var sourceKey: String?

    static func loadFiles(_ db: Database) throws -> [String: PDFFileRecord] {
        var files: [String: PDFFileRecord] = [:]
        let rows = try Row.fetchCursor(db, sql: "SELECT path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error FROM file ORDER BY path")
        while let row = try rows.next() {
            let path: String = row[0]
            let hash: Data = row[3]
            files[path] = PDFFileRecord(
                path: path, size: row[1], modificationTime: row[2], contentHash: [UInt8](hash), title: row[4], author: row[5],
                keywords: try StringList.decode(row[6]), pageCount: row[7], warnings: try StringList.decode(row[8]), readError: row[9])
        }
        return files
    }

    static func load(_ db: Database) throws -> StoredState {
        var state = StoredState()
        state.files = try loadFiles(db)
        let reports = try Row.fetchCursor(db, sql: "SELECT ord, id, sig FROM report")
        while let row = try reports.next() {
            let id: String = row[1]
            state.reportSigs[row[0]] = (id, row[2])
            state.reportIDs.insert(id)
        }
        state.treeSig = try Int64.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'tree_sig'")
        state.sourceKey = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'source'")
        return state
    }
}

/// The writes of an update.
enum Writer {
    static func syncCategories(_ db: Database, plan: TreePlan, changed: Bool) throws {
        let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM category") ?? 0
        guard changed || count != plan.categories.count else { return }
        try db.execute(sql: "DELETE FROM category")
        let insert = try db.cachedStatement(sql: "INSERT INTO category(ord, id, title, end_ord, parent) VALUES (?, ?, ?, ?, ?)")
        for c in plan.categories {
            try insert.execute(arguments: [c.ord, c.id, c.title, c.endOrd, c.parent])
        }
    }

    /// Makes the report table match the plan for every report whose file is current; reports
    /// whose file is about to be read keep their row (if it is theirs) until then.
    static func syncReports(_ db: Database, plan: TreePlan, files: [String: PDFFileRecord], pending: Set<String>, stored: [Int: (id: String, sig: Int64)]) throws {
        var wanted: Set<Int> = []
        var rewrite: [Int] = []
        for (i, report) in plan.reports.enumerated() {
            wanted.insert(report.ord)
            if let f = report.file, pending.contains(f) {
                if let old = stored[report.ord], old.id != report.id { try delete(db, ord: report.ord) }
                continue
            }
            rewrite.append(i)
        }
        for ord in stored.keys.sorted() where !wanted.contains(ord) { try delete(db, ord: ord) }
        try rewriteReports(db, plan: plan, indices: rewrite, files: files, stored: stored)
    }

    /// Writes the reports at `indices` of the plan whose signature differs from the stored one.
    static func rewriteReports(_ db: Database, plan: TreePlan, indices: [Int], files: [String: PDFFileRecord], stored: [Int: (id: String, sig: Int64)]) throws {
        var texts = FieldTexts()
        for i in indices {
            let report = plan.reports[i]
            let record = report.file.flatMap { files[$0] }
            let sig = signature(report, record)
            if let old = stored[report.ord], old.sig == sig, old.id == report.id { continue }
            try delete(db, ord: report.ord)
            let keywords = ReportIndex.mergeKeywords(record?.keywords ?? [], report.keywords)
            try db.cachedStatement(sql: """
                INSERT INTO report(ord, id, title, path, category_titles, datasource_keywords, keywords, file, sig)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [
                    report.ord, report.id, report.title, report.storedPath, report.storedCategoryTitles,
                    StringList.encode(report.keywords), StringList.encode(keywords), report.file, sig,
                ])
            try db.cachedStatement(sql: "INSERT INTO search(rowid, title, pdf_title, keywords, author, category) VALUES (?, ?, ?, ?, ?, ?)")
                .execute(arguments: StatementArguments([report.ord as any DatabaseValueConvertible] + texts.columns(report, record, keywords)))
            let insertKeyword = try db.cachedStatement(sql: "INSERT INTO keyword(key, report, display) VALUES (?, ?, ?)")
            for (key, keyword) in texts.keywordKeys(keywords) {
                try insertKeyword.execute(arguments: [key, report.ord, keyword])
            }
        }
    }

    static func delete(_ db: Database, ord: Int) throws {
        try db.cachedStatement(sql: "DELETE FROM report WHERE ord = ?").execute(arguments: [ord])
        try db.cachedStatement(sql: "DELETE FROM search WHERE rowid = ?").execute(arguments: [ord])
        try db.cachedStatement(sql: "DELETE FROM keyword WHERE report = ?").execute(arguments: [ord])
    }

    static func upsertFile(_ db: Database, _ r: PDFFileRecord) throws {
        try db.cachedStatement(sql: """
            INSERT OR REPLACE INTO file(path, size, mtime_ns, sha256, title, author, keywords, pages, warnings, error)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [
                r.path, r.size, r.modificationTime, Data(r.contentHash), r.title, r.author, StringList.encode(r.keywords),
                r.pageCount, StringList.encode(r.warnings), r.readError,
            ])
    }

    /// Everything a report's rows are made of.
    static func signature(_ report: TreePlan.Report, _ record: PDFFileRecord?) -> Int64 {
        var sig = Signature()
        sig.add(report.id, report.title, report.file ?? "\u{0}")
        sig.add(report.path)
        sig.add(report.categoryTitles)
        sig.add(report.keywords)
        if let record {
            sig.add(record.title ?? "\u{0}", record.author ?? "\u{0}")
            sig.add(record.keywords)
            sig.add(Int64(record.pageCount ?? -1))
        }
        return sig.value
    }
}

/// Normalised field texts and keyword keys, remembered. A text is cut at its spaces that are
/// characters of their own (``SearchText/words(_:)``), and each piece between them is normalised
/// once: titles are new texts of old words. The columns are those of
/// ``SearchText/normalize(_:)`` and ``SearchText/indexed(_:)``, byte for byte.
struct FieldTexts {
    private var folder = SearchText.Folder()
    private var pieces: [TextKey: Piece] = [:]
    private var keys: [TextKey: String] = [:]
    /// The last category titles' column: a category's reports share their titles (one array,
    /// compared by identity first) and follow one another.
    private var lastCategories: (titles: [String], column: String)?

    /// The most pieces and keyword keys each remembered (a worker's memory stays bounded).
    static let remembered = 200_000

    /// Text compared and hashed by its UTF-8 bytes (a `String` key would hash its normalised form,
    /// which costs more than the bytes; the normalised text is NFC, so bytes compare alike).
    struct TextKey: Hashable {
        var text: Substring

        func hash(into hasher: inout Hasher) {
            hasher.combine(text.utf8.count)
            if text.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer($0)) }) == nil {
                for byte in text.utf8 { hasher.combine(byte) }
            }
        }

        static func == (a: TextKey, b: TextKey) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
    }

    /// A piece of text between spaces, normalised.
    struct Piece {
        /// Its tokens joined by spaces.
        var normalized: String
        /// For each of its words with parts (``SearchText/parts(of:)``): a space, the parts mark, a
        /// space and the parts joined by spaces, as ``SearchText/indexed(_:)`` appends them.
        var parts: String
        /// Whether it holds a scalar with a numeric type (a column gets its parts only then).
        var numeric: Bool
        /// Whether the column must be indexed whole: the piece begins or ends with a scalar that
        /// makes one character with the space that joins it to the next, or holds the parts mark.
        var indexWhole: Bool
    }

    private mutating func piece(_ raw: Substring) -> Piece {
        let key = TextKey(text: raw)
        if let known = pieces[key] { return known }
        let normalized = folder.tokens(String(raw)).map(\.text).joined(separator: " ")
        let scalars = normalized.unicodeScalars
        let joins = scalars.first.map { SearchText.joinsSpace($0, after: true) } == true
            || scalars.last.map { SearchText.joinsSpace($0, after: false) } == true
        let piece = Piece(
            normalized: normalized, parts: SearchText.partsOfWords(normalized), numeric: SearchText.holdsNumber(normalized),
            indexWhole: joins || scalars.contains("\u{FFFF}"))
        if pieces.count < Self.remembered { pieces[TextKey(text: Substring(String(raw)))] = piece }
        return piece
    }

    /// One full-text column from its texts: each normalised, joined by single spaces (an empty
    /// one too), with the parts of its tokens of letters and digits (``SearchText/indexed(_:)``).
    mutating func column(_ texts: [String]) -> String {
        var normalized = "", parts = ""
        var numeric = false, whole = false
        for (k, text) in texts.enumerated() {
            if k > 0 { normalized += " " }
            var first = true
            for raw in SearchText.words(text[...]) {
                let piece = piece(raw)
                guard !piece.normalized.isEmpty else { continue }
                if !first { normalized += " " }
                first = false
                normalized += piece.normalized
                parts += piece.parts
                numeric = numeric || piece.numeric
                whole = whole || piece.indexWhole
            }
        }
        if whole { return SearchText.indexed(normalized) }
        return numeric ? normalized + parts : normalized
    }

    /// The keys of a report's `keywords` (``keywordKey(_:)``), each once with its first keyword,
    /// in order; an empty key is left out. Keys are NFC, so equal keys have equal bytes.
    mutating func keywordKeys(_ keywords: [String]) -> [(key: String, keyword: String)] {
        var keys: [(key: String, keyword: String)] = []
        for keyword in keywords {
            let key = keywordKey(keyword)
            guard !key.isEmpty, !keys.contains(where: { $0.key.utf8.elementsEqual(key.utf8) }) else { continue }
            keys.append((key, keyword))
        }
        return keys
    }

    /// ``SearchText/keywordKey(_:)``, remembered.
    mutating func keywordKey(_ keyword: String) -> String {
        if let known = keys[TextKey(text: keyword[...])] { return known }
        let key = SearchText.keywordKey(keyword)
        if keys.count < Self.remembered { keys[TextKey(text: keyword[...])] = key }
        return key
    }

    /// A report's five full-text columns (title, PDF title, keywords, author, category titles),
    /// normalised, with the parts of tokens of letters and digits (``SearchText/indexed(_:)``).
    mutating func columns(_ report: TreePlan.Report, _ record: PDFFileRecord?, _ keywords: [String]) -> [String] {
        [column([report.title]), column([record?.title ?? ""]), column(keywords), column([record?.author ?? ""]), categoryColumn(report.categoryTitles)]
    }

    /// ``column(_:)`` of category titles, remembered for the next report's.
    private mutating func categoryColumn(_ titles: [String]) -> String {
        if let last = lastCategories, last.titles == titles { return last.column }
        let made = column(titles)
        lastCategories = (titles, made)
        return made
    }
}

/// A 64-bit signature of strings and numbers: the first eight bytes of their SHA-256, each
/// string length-prefixed so that no two sequences serialise alike. The bytes are hashed as they
/// come, 64 KiB at a time (a datasource's signature covers every report).
struct Signature {
    private var context = SHA256_CTX()
    private var pending: [UInt8] = []

    init() { SHA256_Init(&context) }

    mutating func add(_ strings: String...) { for s in strings { add(string: s) } }

    mutating func add(_ strings: [String]) {
        add(Int64(strings.count))
        for s in strings { add(string: s) }
    }

    mutating func add(_ n: Int64) {
        withUnsafeBytes(of: n.littleEndian) { pending.append(contentsOf: $0) }
    }

    private mutating func add(string s: String) {
        add(Int64(s.utf8.count))
        pending.append(contentsOf: s.utf8)
        if pending.count >= 1 << 16 {
            pending.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
            pending.removeAll(keepingCapacity: true)
        }
    }

    var value: Int64 {
        var context = context
        var digest = [UInt8](repeating: 0, count: 32)
        pending.withUnsafeBytes { _ = SHA256_Update(&context, $0.baseAddress, $0.count) }
        _ = SHA256_Final(&digest, &context)
        return digest[0..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
    }
}

/// Lists of strings in a TEXT column: a JSON array.
enum StringList {
    /// A column that should hold a list and does not: the index is damaged.
    struct Malformed: Error, CustomStringConvertible {
        let text: String
        var description: String { "a list column holds \(text.prefix(40).debugDescription), not a JSON array of strings" }
    }

    static func encode(_ list: [String]) -> String {
        guard !list.isEmpty else { return "[]" }
        // JSONSerialization escapes only `"`, `\` and control characters here (slashes kept): a
        // list without them is written as it would write it, without its cost.
        if list.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C } }) {
            var out = "[\""
            for (i, item) in list.enumerated() {
                if i > 0 { out += "\",\"" }
                out += item
            }
            return out + "\"]"
        }
        // An array of strings always serialises; the fallback only satisfies the type.
        let data = (try? JSONSerialization.data(withJSONObject: list, options: [.withoutEscapingSlashes])) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The list in `text` (NULL: empty); a text that is not a JSON array of strings throws
    /// `Malformed`, which the index reports as damage.
    static func decode(_ text: String?) throws -> [String] {
        guard let text, text != "[]" else { return [] }
        guard let data = text.data(using: .utf8),
              let list = (try? JSONSerialization.jsonObject(with: data)) as? [String]  // refused just below
        else { throw Malformed(text: text) }
        return list
    }
}

/// `transform` over `items` on `jobs` threads; results in the order of `items`.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ transform: @Sendable (T) -> R) -> [R] {
    if jobs <= 1 || items.count < 2 { return items.map(transform) }
    var results = [R?](repeating: nil, count: items.count)
    results.withUnsafeMutableBufferPointer { buffer in
        nonisolated(unsafe) let out = buffer
        let workers = min(jobs, items.count)
        DispatchQueue.concurrentPerform(iterations: workers) { w in
            var i = w
            while i < items.count {
                out[i] = transform(items[i])
                i += workers
            }
        }
    }
    return results.map { $0! }
}

extension ReportIndex {
    /// What identifies a datasource file as loaded: its path as given (and the working folder,
    /// for a relative path, which its PDF paths resolve against), size and modification time.
    static func sourceKey(_ path: String, _ stamp: FileStamp) -> String {
        let folder = path.hasPrefix("/") ? "" : FileManager.default.currentDirectoryPath
        return [path, folder, String(stamp.size), String(stamp.modificationTime)].joined(separator: "\u{1F}")
    }

    /// Whether the last update was made from the datasource at `path` as it is now (`stamp`, taken
    /// now) and no PDF changed since (each is stat'ed): then an update would change nothing, and
    /// the datasource need not be loaded. Also the summary such an update would give.
    public func isCurrent(datasource path: String, stamp: FileStamp, jobs: Int = ProcessInfo.processInfo.activeProcessorCount) throws(IndexError) -> IndexUpdate? {
        let current: (String?, [PDFFileRecord], Int)
        if let postgres { current = try postgres.currentState() } else { current = try read { db -> (String?, [PDFFileRecord], Int) in
            guard let key = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'source'") else { return (nil, [], 0) }
            let state = try StoredState.loadFiles(db)
            return (key, state.keys.sorted().map { state[$0]! }, try Int.fetchOne(db, sql: "SELECT count(*) FROM report") ?? 0)
        } }
        let (key, records, reports) = current
        guard key == Self.sourceKey(path, stamp) else { return nil }
        let stamps = parallelMap(records.map(\.path), jobs: jobs) { FileStamp.of($0) }
        for (record, now) in zip(records, stamps) {
            let same = now.map { $0.size == record.size && $0.modificationTime == record.modificationTime } ?? (record.size == -1)
            if !same || record.modificationTime < 0 { return nil }
        }
        var result = IndexUpdate()
        result.reports = reports
        result.unchanged = records.count
        result.warnings = records.reduce(0) { $0 + $1.warnings.count + ($1.readError == nil ? 0 : 1) }
        for record in records { result.files[record.path] = record }
        return result
    }

    /// `first` then `extra`, without repeats (compared without regard to case), keeping the first
    /// spelling: a report's keywords are its PDF's, then the datasource's own.
    public static func mergeKeywords(_ first: [String], _ extra: [String]) -> [String] {
        var merged: [String] = []
        merged.reserveCapacity(first.count + extra.count)
        // A report's few keywords are compared with those kept (a set costs more than it saves).
        guard first.count + extra.count > 16 else {
            var seen: [String] = []
            seen.reserveCapacity(first.count + extra.count)
            for list in [first, extra] {
                for k in list {
                    let folded = k.lowercased()
                    if !seen.contains(folded) {
                        seen.append(folded)
                        merged.append(k)
                    }
                }
            }
            return merged
        }
        var seen: Set<String> = []
        for k in first + extra where seen.insert(k.lowercased()).inserted {
            merged.append(k)
        }
        return merged
    }
}
