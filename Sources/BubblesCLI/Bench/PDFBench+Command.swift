import ArgumentParser

/// `bubbles bench pdf`.
struct BenchPDF: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pdf",
        abstract: "Benchmark the PDF metadata reader on the *.pdf files under the given folders.",
        discussion: """
            Files per second, median and worst ms per file, bytes read against file size, and by \
            size class (under 16 KB, 16-64 KB, 64 KB-1 MB, over 1 MB) the median CPU and wall µs \
            per file, and the CPU µs of the system calls alone (open, fstat, the read, close: \
            the floor under any reader). With --pikepdf (a Python that has pikepdf) pikepdf reads \
            the same files in the same run and each class shows both ratios.
            """)

    @Argument(help: "Folders (or PDF files) to read.")
    var directories: [String]

    @Option(help: "Reads of each file (its time is their median).")
    var repeats: Int = 5

    @Option(help: "A Python that has pikepdf; it reads the same files in the same run, compared per size class.")
    var pikepdf: String?

    @Flag(help: "Print one JSON document.")
    var json = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        if repeats < 1 { throw ValidationError("--repeats must be at least 1") }
    }

    func run() throws {
        try Bench.running(global) {
            try PDFBench.run(directories: directories, json: json, repeats: repeats, pikepdfPython: pikepdf)
        }
    }
}
