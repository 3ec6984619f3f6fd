import ArgumentParser

/// The `bubbles` command: the engine's tools on the command line.
@main
struct Bubbles: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bubbles",
        abstract: "Headless core of the bubble-dashboard report browser.",
        discussion: "Run `bubbles help <subcommand>` for the options of one subcommand.",
        subcommands: [Validate.self, Render.self, Keywords.self, Bench.self, Export.self])
}
