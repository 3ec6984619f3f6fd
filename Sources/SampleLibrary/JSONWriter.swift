// Writes the library as the datasource JSON document (reports.json).
//
// The format is fixed: 2-space indentation, keys in the order id, title, colour, file, keywords,
// children; non-ASCII characters written as they are; a trailing newline. Keyword arrays are short
// and written on one line; children arrays one element per line.

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
            members.append("\"id\": \(quoted(category.id))")
            members.append("\"title\": \(quoted(category.title))")
            if let colour = category.colour {
                members.append("\"colour\": \(quoted(colour))")
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
            members.append("\"id\": \(quoted(report.id))")
            members.append("\"title\": \(quoted(report.title))")
            members.append("\"file\": \(quoted(report.file))")
            if !report.extraKeywords.isEmpty {
                let list = report.extraKeywords.map(quoted).joined(separator: ", ")
                members.append("\"keywords\": [\(list)]")
            }
        }
        output += "{\n"
        output += members.map { inner + $0 }.joined(separator: ",\n")
        output += "\n" + String(repeating: "  ", count: indent) + "}"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped, everything else
    /// (including non-ASCII) written as is.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\u{08}": result += "\\b"
            case "\u{0C}": result += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16, uppercase: false)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
