// Writes the library as the datasource JSON document (reports.json).
//
// The format is fixed: 2-space indentation, keys in the order id, title, colour, file, keywords,
// children; non-ASCII characters written as they are; a trailing newline. Keyword arrays are short
// and written on one line; children arrays one element per line.

import ReportLibrary

enum JSONWriter {
    /// The complete document for `root`, ending with a newline.
    static func document(_ root: SampleCategory) -> String {
        var output = ""
        write(.category(root), indent: 0, into: &output)
        output += "\n"
        return output
    }

    private static func write(_ node: SampleNode, indent: Int, into output: inout String) {
        let inner = String(repeating: "  ", count: indent + 1)
        var members: [String] = []
        switch node {
        case .category(let category):
            members.append("\"id\": \(JSONLiteral.string(category.id))")
            members.append("\"title\": \(JSONLiteral.string(category.title))")
            if let colour = category.colour {
                members.append("\"colour\": \(JSONLiteral.string(colour))")
            }
            var children = "\"children\": ["
            if category.children.isEmpty {
                children += "]"
            } else {
                children += "\n"
                for (index, child) in category.children.enumerated() {
                    children += String(repeating: "  ", count: indent + 2)
                    write(child, indent: indent + 2, into: &children)
                    children += index == category.children.count - 1 ? "\n" : ",\n"
                }
                children += inner + "]"
            }
            members.append(children)
        case .report(let report):
            members.append("\"id\": \(JSONLiteral.string(report.id))")
            members.append("\"title\": \(JSONLiteral.string(report.title))")
            members.append("\"file\": \(JSONLiteral.string(report.file))")
            if !report.extraKeywords.isEmpty {
                let list = report.extraKeywords.map { JSONLiteral.string($0) }.joined(separator: ", ")
                members.append("\"keywords\": [\(list)]")
            }
        }
        output += "{\n"
        output += members.map { inner + $0 }.joined(separator: ",\n")
        output += "\n" + String(repeating: "  ", count: indent) + "}"
    }
}
