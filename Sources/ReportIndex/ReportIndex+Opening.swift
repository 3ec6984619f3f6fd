import Foundation
import GRDB
import ReportLibrary

// Opening an index: read-only, writable (creating or migrating the schema), or in memory when the
// folder cannot be written.
extension ReportIndex {
    static func configuration(readOnly: Bool) -> Configuration {
        var config = Configuration()
        config.readonly = readOnly
        config.busyMode = .timeout(10)
        config.label = "ReportIndex"
        config.maximumReaderCount = 4
        return config
    }

    static func openReadOnly(_ path: String) throws(IndexError) -> ReportIndex {
        guard FileManager.default.fileExists(atPath: path) else {
            throw IndexError(.database, path: path, "no index here; run 'bubbles index' first")
        }
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration(readOnly: true))
            let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0 }
            // Versions 1 and 2 differ by the thumbnail table (empty when absent) and by the parts of
            // tokens in the full-text text (not found in them): they answer as they are.
            guard version == schemaVersion || version == 1 || version == 2 else {
                throw IndexError(.database, path: path, "the index was written by schema version \(version), not \(schemaVersion); run 'bubbles index' to rebuild it")
            }
            return ReportIndex(path: path, reader: queue, writer: nil, lock: nil, writable: false)
        } catch let error as IndexError {
            throw error
        } catch {
            throw IndexError(.database, path: path, "cannot read the index: \(describe(error))")
        }
    }

    /// An empty in-memory index of the current schema, for a process that can neither write nor
    /// read the index file: every PDF is read, nothing is kept.
    static func memoryDatabase(_ path: String) throws(IndexError) -> DatabaseQueue {
        do {
            let queue = try DatabaseQueue(configuration: configuration(readOnly: false))
            try queue.write { db in try Schema.create(db) }
            return queue
        } catch {
            throw IndexError(.database, path: path, "cannot create an index in memory: \(describe(error))")
        }
    }

    static func openWritable(_ path: String, lock: UpdateLock, warn: (String) -> Void) throws(IndexError) -> ReportIndex {
        if let problem = fileProblem(path) {
            warn("\(path): \(problem); rebuilding the index")
            try removeDatabase(path)
        }
        for attempt in 0..<2 {
            do {
                let pool = try DatabasePool(path: path, configuration: configuration(readOnly: false))
                let state = try pool.read { db -> (Int, Int32) in
                    let version = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
                    let application = try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0
                    return (version, application)
                }
                if state.0 == 0 {
                    let tables = try pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_schema") ?? 0 }
                    if tables > 0 { throw Rebuild("it is not an index of this program") }
                    try pool.write { db in try Schema.create(db) }
                } else if state.1 != applicationID {
                    throw Rebuild("it is not an index of this program")
                } else if state.0 != schemaVersion {
                    let migrated = try state.0 < schemaVersion && pool.write { db in try Schema.migrate(db, from: state.0) }
                    if !migrated { throw Rebuild("written by schema version \(state.0), this program writes \(schemaVersion)") }
                }
                try pool.read { db in try Schema.checkFullText(db) }
                return ReportIndex(path: path, reader: pool, writer: pool, lock: lock, writable: true)
            } catch let rebuild as Rebuild where attempt == 0 {
                warn("\(path): \(rebuild.reason); rebuilding the index")
                try removeDatabase(path)
            } catch let error as DatabaseError where attempt == 0 && isDamage(error) {
                warn("\(path): the database is damaged (\(describe(error))); rebuilding the index")
                try removeDatabase(path)
            } catch let error as DatabaseError where error.resultCode == .SQLITE_CANTOPEN || error.resultCode == .SQLITE_READONLY || error.resultCode == .SQLITE_PERM {
                throw IndexError(.notWritable, path: path, "cannot write the index here (\(describe(error)))", elsewhereHelps: true)
            } catch {
                throw IndexError(.database, path: path, "cannot open the index: \(describe(error))")
            }
        }
        throw IndexError(.database, path: path, "cannot rebuild the index")
    }
}
