import ReportLibrary

/// How many reports and categories a datasource holds, or its first problem as one line.
func describeLibrary(at path: String) -> String {
    do {
        let tree = try LibraryLoader.load(path)
        let statistics = tree.statistics
        return "\(statistics.reports) reports in \(statistics.categories) categories"
    } catch {
        return "error: \(error)"  // error: file:line:column: json.path: problem
    }
}
