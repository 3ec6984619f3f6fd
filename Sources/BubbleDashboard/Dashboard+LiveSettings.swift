import BubblePhysics

// Live settings: new motion settings for a running dashboard (the `settings` event).
extension DashboardSettings {
    /// `self` with the motion settings of `other`: springs, contact friction, the durations and
    /// glides of transitions, drag coupling and table scrolling. Sizes, canvas, chrome and the
    /// layout spring stay (they shape the level layouts, which are computed once per level).
    public func withFeel(of other: DashboardSettings) -> DashboardSettings {
        var s = self
        s.placeSpring = other.placeSpring
        s.contactFriction = other.contactFriction
        s.appearDuration = other.appearDuration
        s.appearFrom = other.appearFrom
        s.appearStagger = other.appearStagger
        s.appearStaggerTotal = other.appearStaggerTotal
        s.collapseDuration = other.collapseDuration
        s.collapseGlide = other.collapseGlide
        s.focusDuration = other.focusDuration
        s.springReach = other.springReach
        s.maxTravelSpeed = other.maxTravelSpeed
        s.overlayDuration = other.overlayDuration
        s.dragNearFrequency = other.dragNearFrequency
        s.dragFarFrequency = other.dragFarFrequency
        s.dragFalloff = other.dragFalloff
        s.dragDampingRatio = other.dragDampingRatio
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
    public func updateFeel(_ new: DashboardSettings) throws(DashboardError) {
        let new = settings.withFeel(of: new)
        try new.validate()
        let worldSettings = LevelLayout.liveWorldSettings(new)
        do {
            try world.updateSettings(worldSettings)
        } catch {
            throw .physics(error.description)
        }
        let oldPlace = settings.placeSpring
        settings = new
        tablePhysics = TableScrollPhysics(settings: new.tableScroll, timeStep: world.settings.timeStep)
        if new.placeSpring != oldPlace {
            for b in live where drag?.body != b.body {
                guard let s = world.state(ofHeld: b.body), !s.isKinematic, s.spring == oldPlace else { continue }
                world.setSpring(ofHeld: b.body, to: new.placeSpring)
            }
        }
    }
}
