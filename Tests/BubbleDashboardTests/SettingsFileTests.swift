import BubbleDashboard
import BubbleScenario
import Foundation
import Testing

@Suite("Settings file JSON")
struct SettingsFileTests {
    /// `encode` used to write a NaN as `nan`, which no JSON reader takes. It writes `null` now,
    /// so the file is JSON, and reading it back names the field instead of failing on the syntax.
    @Test func aNonFiniteSettingIsWrittenAsNullNotNan() throws {
        var settings = DashboardSettings()
        settings.motion.appearDuration = .nan
        settings.motion.collapseDuration = .infinity
        let text = SettingsFile.encode(settings)
        #expect(!text.contains("nan") && !text.contains("inf"))
        #expect(text.contains("\"appearDuration\": null") && text.contains("\"collapseDuration\": null"))
        #expect(try JSONSerialization.jsonObject(with: Data(text.utf8)) is [String: Any])
        #expect {
            _ = try SettingsFile.parse(Array(text.utf8), file: "saved.json")
        } throws: { error in
            "\(error)".contains("'appearDuration' must be a number, found null")
        }
    }

    /// Finite values are written as before: integers without a fraction, others in the shortest form
    /// that reads back as the same Double.
    @Test func finiteSettingsRoundTripByteForByte() throws {
        var settings = DashboardSettings()
        settings.motion.appearDuration = 0.1 + 0.2
        settings.motion.placeSpring.frequency = 4
        let text = SettingsFile.encode(settings)
        #expect(text.contains("\"appearDuration\": 0.30000000000000004"))
        #expect(text.contains("\"frequency\": 4,") || text.contains("\"frequency\": 4}"))
        let loaded = try SettingsFile.parse(Array(text.utf8), file: "saved.json")
        #expect(SettingsFile.encode(loaded) == text)
    }
}
