// `JSONLiteral` moved to BubbleSupport, the package's standard-library-only helpers; re-exported
// here so that `import ReportLibrary` keeps reaching it.
@_exported import BubbleSupport
