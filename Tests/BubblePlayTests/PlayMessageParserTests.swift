@_spi(Testbed) import BubbleDashboard
import BubblePlay
import Foundation
import TestSupport
import Testing

@Suite("Play message parser")
struct PlayMessageParserTests {
    let parser = PlayMessageParser(canvasWidth: 768, canvasHeight: 1024, baseSettings: DashboardSettings())

    func parse(_ text: String) throws(PlayMessageError) -> PlayMessage { try parser.parse(Array(text.utf8)) }

    func refusal(_ text: String) -> PlayMessageError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func everyMessageTypeParses() throws {
        #expect(try parse(#"{"type": "hello", "scale": 2}"#) == .hello(scale: 2))
        #expect(try parse(#"{"type": "ready"}"#) == .ready)
        #expect(try parse(#"{"type": "tap", "x": 10.5, "y": 20}"#) == .tap(ScenePoint(x: 10.5, y: 20)))
        #expect(try parse(#"{"y": 1024, "type": "press", "x": 768}"#) == .press(ScenePoint(x: 768, y: 1024)))
        #expect(try parse(#"{"type": "move", "x": -40, "y": 2000}"#) == .move(ScenePoint(x: -40, y: 2000)))
        #expect(try parse(#"{"type": "release"}"#) == .release)
        #expect(try parse(#"{"type": "pinch"}"#) == .pinch)
        #expect(try parse(#"{"type": "scroll", "dy": -120}"#) == .scroll(-120))
        #expect(try parse(#"{"type": "close"}"#) == .close)
        #expect(try parse(#"{"type": "pause", "on": true}"#) == .pause(true))
        #expect(try parse(#"{"type": "step"}"#) == .step)
        #expect(try parse(#"{"type": "speed", "value": 0.25}"#) == .speed(0.25))
        #expect(try parse(#"{"type": "restart"}"#) == .restart)
        #expect(try parse(#"{"type": "debug", "on": false}"#) == .debug(false))
        #expect(try parse(#"{"type": "record"}"#) == .record)
        #expect(try parse(#"{"type": "saveSettings"}"#) == .saveSettings)
        var expected = DashboardSettings()
        expected.motion.placeSpring.frequency = 5
        expected.drag.nearFrequency = 9
        #expect(try parse(#"{"type": "settings", "values": {"placeSpring": {"frequency": 5}, "dragNearFrequency": 9}}"#) == .settings(expected))
    }

    @Test func fieldTextsAndPicksParse() throws {
        #expect(try parse(#"{"type": "search", "text": "inc"}"#) == .search("inc"))
        #expect(try parse(#"{"type": "search", "text": ""}"#) == .search(""))
        #expect(try parse(#"{"type": "search", "text": "東京\u00e9"}"#) == .search("東京é"))
        #expect(try parse(#"{"type": "filter_query", "text": "quar"}"#) == .filterQuery("quar"))
        #expect(try parse(#"{"type": "search_pick", "row": 0}"#) == .searchPick(0))
        #expect(try parse(#"{"type": "search_pick", "row": 999}"#) == .searchPick(999))
        // 256 characters of 3 UTF-8 bytes each fit in a message.
        #expect(try parse(#"{"type": "search", "text": "\#(String(repeating: "語", count: 256))"}"#) == .search(String(repeating: "語", count: 256)))
    }

    @Test func fieldTextsAndPicksAreChecked() {
        #expect(refusal(#"{"type": "search"}"#)?.message == "missing field 'text'")
        #expect(refusal(#"{"type": "search", "text": 5}"#)?.description == "text: must be a string, found a number")
        #expect(refusal(#"{"type": "filter_query", "text": null}"#)?.path == "text")
        #expect(refusal(#"{"type": "search", "text": "a\u0007b"}"#)?.description == "text: control character U+0007 in the text")
        #expect(refusal(#"{"type": "search", "text": "a\nb"}"#)?.path == "text")
        #expect(refusal(#"{"type": "search", "text": "\#(String(repeating: "a", count: 257))"}"#)?.description == "text: longer than 256 characters (257)")
        #expect(refusal(#"{"type": "search", "text": "a", "row": 1}"#)?.path == "row")
        #expect(refusal(#"{"type": "search_pick", "row": -1}"#)?.path == "row")
        #expect(refusal(#"{"type": "search_pick", "row": 1000}"#)?.path == "row")
        #expect(refusal(#"{"type": "search_pick", "row": 1.5}"#)?.description == "row: must be a whole number, got 1.5")
        #expect(refusal(#"{"type": "search_pick", "row": "0"}"#)?.path == "row")
    }

    @Test func malformedJSONIsRefusedWithItsPlace() {
        for text in ["", "{", "{\"type\": \"tap\", \"x\": 1,}", "[1, 2]", "\"tap\"", "{\"type\": tap}", "nul", "{\"type\": \"tap\"}}"] {
            let e = refusal(text)
            #expect(e != nil, "accepted \(text)")
        }
        #expect(refusal("{\"type\": \"ready\"")?.message.hasPrefix("malformed JSON at byte") == true)
        #expect(refusal("[]")?.message == "a message must be a JSON object, found an array")
    }

    @Test func unknownTypesAndFieldsAreRefused() {
        #expect(refusal(#"{"x": 1}"#)?.path == "type")
        #expect(refusal(#"{"type": 7}"#)?.message == "'type' must be a string, found a number")
        #expect(refusal(#"{"type": "explode"}"#)?.message.hasPrefix("unknown message type 'explode'") == true)
        #expect(refusal(#"{"type": "ready", "extra": 1}"#)?.path == "extra")
        #expect(refusal(#"{"type": "tap", "x": 1, "y": 2, "x": 3}"#)?.message.contains("duplicate member") == true)
        #expect(refusal(#"{"type": "settings", "values": {"gravity": 9.8}}"#)?.path == "values.gravity")
        #expect(refusal(#"{"type": "settings", "values": {"placeSpring": {"stiffness": 1}}}"#)?.path == "values.placeSpring.stiffness")
    }

    @Test func numbersMustBeFiniteAndInRange() {
        // JSON has no NaN or infinity; a huge literal overflows to infinity and is refused by the JSON parser.
        #expect(refusal(#"{"type": "tap", "x": NaN, "y": 1}"#) != nil)
        #expect(refusal(#"{"type": "tap", "x": 1e400, "y": 1}"#) != nil)
        #expect(refusal(#"{"type": "tap", "x": -1, "y": 1}"#)?.path == "x")
        #expect(refusal(#"{"type": "tap", "x": 1, "y": 1025}"#)?.path == "y")
        #expect(refusal(#"{"type": "press", "x": "1", "y": 1}"#)?.message == "must be a number, found a string")
        #expect(refusal(#"{"type": "move", "x": 1e7, "y": 1}"#)?.path == "x")
        #expect(refusal(#"{"type": "scroll", "dy": 1e300}"#)?.path == "dy")
        #expect(refusal(#"{"type": "speed", "value": 0.3}"#)?.message == "must be 0.25, 0.5 or 1, got 0.3")
        #expect(refusal(#"{"type": "hello", "scale": 0}"#)?.path == "scale")
        #expect(refusal(#"{"type": "pause", "on": 1}"#)?.message == "must be true or false, found a number")
        #expect(refusal(#"{"type": "settings", "values": {"dragFalloff": 0}}"#)?.path == "values.dragFalloff")
        #expect(refusal(#"{"type": "tap", "x": 1}"#)?.message == "missing field 'y'")
    }

    @Test func oversizedAndDeepMessagesAreRefused() {
        let padding = String(repeating: " ", count: PlayMessageParser.maxMessageBytes)
        #expect(refusal(#"{"type": "ready"}"# + padding)?.message.hasPrefix("message of") == true)
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(refusal(#"{"type": "settings", "values": "# + deep + "}") != nil)
        #expect(refusal(String(repeating: "{\"a\":", count: 500)) != nil)
    }

    @Test func arbitraryBytesNeverCrash() {
        // 2000 messages of 0–63 bytes, each byte from the JSON alphabet or any byte, half and half.
        var random = SeededRandom(seed: 0x9E37_79B9_7F4A_7C15)
        let alphabet = Array(#"{}[]",:0123456789.eE+-truefalsnul typexyscalepressmove\"#.utf8)
        for _ in 0..<2000 {
            var bytes: [UInt8] = []
            let n = random.below(64)
            for _ in 0..<n {
                let draw = random.next()
                bytes.append(draw >> 63 == 0 ? alphabet[Int(draw >> 33) % alphabet.count] : UInt8(truncatingIfNeeded: draw >> 40))
            }
            _ = try? parser.parse(bytes)
        }
    }
}
