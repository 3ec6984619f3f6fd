import BubblePhysics

// Live settings: new motion settings for a running dashboard (the `settings` event).
extension DashboardSettings {
    /// `self` with the live settings of `other` (the fields marked `isLive`): `motion`, `drag` and
    /// `tableScroll`. The canvas, chrome, sizes, cards and layout stay (they shape the level
    /// layouts, which are computed once per level).
    @_spi(Testbed) public func withFeel(of other: DashboardSettings) -> DashboardSettings {
        var s = self
        s.motion = other.motion
        s.drag = other.drag
        s.tableScroll = other.tableScroll
        return s
    }
}

extension Dashboard {
    /// Takes the motion settings of `new` (`withFeel(of:)`; its sizes and canvas are ignored) from
    /// the current step on: the `settings` event. Throws, changing nothing, when they are invalid.
    /// Bubbles that spring to their places take the new place spring at once (in the order of
    /// the live bubbles, so a replay does the same); new transitions, drags and the contact
    /// friction use the new values from the next step.
    @_spi(Testbed) public func updateFeel(_ new: DashboardSettings) throws(DashboardError) {
        let new = settings.withFeel(of: new)
        try new.validate()
        // The bounds stay the focused level's area (larger than the bubble area on a level that pans).
        let worldSettings = LevelLayout.liveWorldSettings(new, area: world.settings.bounds)
        do {
            try world.updateSettings(worldSettings)
        } catch {
            throw .physics(error.description)
        }
        let oldPlace = settings.motion.placeSpring
        settings = new
        tablePhysics = TableScrollPhysics(settings: new.tableScroll, timeStep: world.settings.timeStep)
        if new.motion.placeSpring != oldPlace {
            for b in live where drag?.body != b.body {
                guard let s = world.state(ofHeld: b.body), !s.isKinematic, s.spring == oldPlace else { continue }
                world.setSpring(ofHeld: b.body, to: new.motion.placeSpring)
            }
        }
    }
}
