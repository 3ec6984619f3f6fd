// `FNV1a64` and `SplitMix64` moved to BubbleSupport, the package's standard-library-only helpers;
// re-exported here so that `import BubblePhysics` keeps reaching them.
@_exported import BubbleSupport
