@_spi(Testbed) import BubbleDashboard
import BubblePhysics
@_spi(Testbed) import BubbleScenario
import Testing

/// The one range table of `DashboardSettings`: every field is checked at creation, by its name,
/// and the settings file and the play panel read the same table.
@Suite struct SettingsTests {
    @Test func theDefaultsAreInsideEveryRange() {
        let defaults = DashboardSettings()
        for field in DashboardSettings.fields {
            #expect(field.range.contains(field.value(in: defaults)), "\(field.name)")
        }
        #expect(Set(DashboardSettings.fields.map(\.name)).count == DashboardSettings.fields.count)
    }

    /// A value just outside any field's range, or not finite, is refused when the dashboard is
    /// made, naming the field.
    @Test func everyFieldIsCheckedAtCreation() throws {
        let tree = try DashboardTree(nodes: [
            DashboardNode(id: "root", title: "Root", kind: .category, colour: nil, children: [1], reportCount: 1),
            DashboardNode(id: "r", title: "Report", kind: .report, colour: nil, children: [], reportCount: 1),
        ])
        for field in DashboardSettings.fields {
            let span = field.range.upperBound - field.range.lowerBound
            for bad in [field.range.upperBound + max(1, span), .nan, .infinity] {
                var settings = DashboardSettings()
                // Out of range through the table's own setter is refused there too.
                #expect(throws: DashboardError.self) { _ = try field.setting(bad, in: settings) }
                settings = Self.forced(field, bad, settings)
                #expect {
                    _ = try Dashboard(tree: tree, settings: settings)
                } throws: { error in
                    switch error as? DashboardError {
                    case .invalidSetting(let name, _, _)?: return name == field.name
                    case .invalidSpring(let name, _, _)?: return field.name.hasPrefix(name + ".")
                    case .invalidNumber(let name, _)?: return name.hasPrefix(field.name)
                    default: return false
                    }
                }
            }
        }
    }

    /// A spring that the physics world would refuse is a typed error at creation, not a
    /// `.physics` message at the first tap.
    @Test func aBadSpringIsATypedErrorAtCreation() throws {
        let tree = try DashboardTree(nodes: [
            DashboardNode(id: "root", title: "Root", kind: .category, colour: nil, children: [], reportCount: 0)
        ])
        var settings = DashboardSettings()
        settings.motion.placeSpring = Spring(frequency: 0, dampingRatio: 1)
        #expect(throws: DashboardError.invalidSpring(field: "placeSpring", frequency: 0, dampingRatio: 1)) {
            _ = try Dashboard(tree: tree, settings: settings)
        }
        settings = DashboardSettings()
        settings.layout.spring = Spring(frequency: 2, dampingRatio: 9)
        #expect(throws: DashboardError.invalidSpring(field: "layout.spring", frequency: 2, dampingRatio: 9)) {
            _ = try Dashboard(tree: tree, settings: settings)
        }
        settings = DashboardSettings()
        settings.cards.minWidth = 300
        #expect(throws: DashboardError.self) { _ = try Dashboard(tree: tree, settings: settings) }
    }

    /// The settings file carries exactly the live fields, by the table's names and ranges, and
    /// round-trips them.
    @Test func theSettingsFileReadsTheTable() throws {
        #expect(SettingsFile.fields.map(\.name) == DashboardSettings.fields.filter(\.isLive).map(\.name))
        var settings = DashboardSettings()
        settings.drag.nearFrequency = 9.5
        settings.tableScroll.maxOvershoot = 120
        let text = SettingsFile.encode(settings)
        let back = try SettingsFile.parse(Array(text.utf8), file: "settings.json")
        #expect(back == settings)
        #expect(throws: ScenarioError.self) {
            _ = try SettingsFile.parse(Array(#"{"dragFalloff": 0}"#.utf8), file: "settings.json")
        }
    }

    /// Sets a field without the table's check (to hand the dashboard a bad value).
    static func forced(_ field: DashboardSettings.Field, _ value: Double, _ settings: DashboardSettings) -> DashboardSettings {
        var s = settings
        switch field.name {
        case "canvasWidth": s.canvasWidth = value
        case "canvasHeight": s.canvasHeight = value
        case "cards.charactersPerLine": s.cards.charactersPerLine = value.isFinite ? Int(value) : 100_000
        case "cards.maxLines": s.cards.maxLines = value.isFinite ? Int(value) : 100_000
        default: s = Self.assign(field.name, value, s)
        }
        return s
    }

    static func assign(_ name: String, _ v: Double, _ settings: DashboardSettings) -> DashboardSettings {
        var s = settings
        switch name {
        case "sizes.categoryRadiusBase": s.sizes.categoryRadiusBase = v
        case "sizes.categoryRadiusPerSqrtReport": s.sizes.categoryRadiusPerSqrtReport = v
        case "sizes.categoryRadiusMin": s.sizes.categoryRadiusMin = v
        case "sizes.categoryRadiusMax": s.sizes.categoryRadiusMax = v
        case "sizes.categoryTitleInset": s.sizes.categoryTitleInset = v
        case "sizes.focusRadius": s.sizes.focusRadius = v
        case "sizes.startRadius": s.sizes.startRadius = v
        case "sizes.gap": s.sizes.gap = v
        case "sizes.fillFactor": s.sizes.fillFactor = v
        case "sizes.minimumShrink": s.sizes.minimumShrink = v
        case "sizes.minimumLabelFontSize": s.sizes.minimumLabelFontSize = v
        case "cards.minWidth": s.cards.minWidth = v
        case "cards.maxWidth": s.cards.maxWidth = v
        case "cards.characterWidth": s.cards.characterWidth = v
        case "cards.horizontalPadding": s.cards.horizontalPadding = v
        case "cards.baseHeight": s.cards.baseHeight = v
        case "cards.lineHeight": s.cards.lineHeight = v
        case "cards.cornerRadius": s.cards.cornerRadius = v
        case "layout.spring.frequency": s.layout.spring.frequency = v
        case "layout.spring.dampingRatio": s.layout.spring.dampingRatio = v
        case "layout.restSpeed": s.layout.restSpeed = v
        case "placeSpring.frequency": s.motion.placeSpring.frequency = v
        case "placeSpring.dampingRatio": s.motion.placeSpring.dampingRatio = v
        case "contactFriction": s.motion.contactFriction = v
        case "appearDuration": s.motion.appearDuration = v
        case "appearFrom": s.motion.appearFrom = v
        case "appearStagger": s.motion.appearStagger = v
        case "appearStaggerTotal": s.motion.appearStaggerTotal = v
        case "collapseDuration": s.motion.collapseDuration = v
        case "collapseGlide": s.motion.collapseGlide = v
        case "focusDuration": s.motion.focusDuration = v
        case "springReach": s.motion.springReach = v
        case "maxTravelSpeed": s.motion.maxTravelSpeed = v
        case "overlayDuration": s.motion.overlayDuration = v
        case "dragNearFrequency": s.drag.nearFrequency = v
        case "dragFarFrequency": s.drag.farFrequency = v
        case "dragFalloff": s.drag.falloff = v
        case "dragDampingRatio": s.drag.dampingRatio = v
        case "tableScroll.decelerationRate": s.tableScroll.decelerationRate = v
        case "tableScroll.rubberBandConstant": s.tableScroll.rubberBandConstant = v
        case "tableScroll.bounceFrequency": s.tableScroll.bounceFrequency = v
        case "tableScroll.maxOvershoot": s.tableScroll.maxOvershoot = v
        case "tableScroll.maxVelocity": s.tableScroll.maxVelocity = v
        case "tableScroll.restDistance": s.tableScroll.restDistance = v
        case "tableScroll.indicatorFadeDelay": s.tableScroll.indicatorFadeDelay = v
        case "tableScroll.indicatorFadeDuration": s.tableScroll.indicatorFadeDuration = v
        default: Issue.record("no setter in the test for \(name)")
        }
        return s
    }
}
