// make-sample-library: writes the shipped sample library (reports.json and one PDF per report).

import ArgumentParser
import SampleLibrary

struct MakeSampleLibrary: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "make-sample-library",
        abstract: "Generate the sample report library: reports.json and reports/*.pdf.",
        discussion: """
            The output is deterministic: running the tool twice writes byte-identical files \
            (for the same Cairo version). Files already up to date are left untouched, and PDFs \
            in reports/ that are not part of the library are removed.
            """)

    @Option(name: .long, help: "The directory to write into.")
    var out: String = "Data"

    func run() throws {
        let summary = try SampleLibrary.generate(into: out)
        print("Wrote the sample library to \(out)")
        print(summary)
    }
}

MakeSampleLibrary.main()
