import Foundation

/// The play page, its script and its style sheet, compiled into the binary: the page works
/// offline and the server never reads a file to answer a request.
///
/// They are edited as the files `Page/play.html`, `Page/play.js` and `Page/play.css` of this
/// module, which the build embeds (SwiftPM's `embedInCode` resources); the suite checks the
/// script with `node --check`. The page's list of keys comes from `shortcuts`, in place of the
/// `<!-- shortcuts -->` line of `play.html`.
public enum PlayAssets {
    /// The assets by request path; any other path is 404.
    public static let files: [(path: String, contentType: String, body: String)] = [
        ("/", "text/html; charset=utf-8", html),
        ("/play.js", "text/javascript; charset=utf-8", script),
        ("/play.css", "text/css; charset=utf-8", css),
    ]

    /// The keyboard shortcuts, as listed on the page.
    public static let shortcuts: [(key: String, action: String)] = [
        ("Esc", "close the overlay"), ("Space", "pause / run"), (". or S", "single step (pauses)"),
        ("1 / 2 / 4", "speed 1, ½, ¼"), ("R", "restart"), ("D", "debug overlay"), ("B or Backspace", "back one level (pinch)"),
        ("typing", "the search or filter field, while open (Enter: first result or Done)"),
    ]

    /// The line of `play.html` that the list of shortcuts replaces.
    static let shortcutsPlaceholder = "      <!-- shortcuts -->"

    /// The page: `play.html` with the shortcuts filled in.
    static let html = String(decoding: PackageResources.play_html, as: UTF8.self).replacingOccurrences(
        of: shortcutsPlaceholder,
        with: shortcuts.map { "      <dt>\($0.key)</dt><dd>\($0.action)</dd>" }.joined(separator: "\n"))

    /// `play.css`.
    static let css = String(decoding: PackageResources.play_css, as: UTF8.self)

    /// `play.js`.
    static let script = String(decoding: PackageResources.play_js, as: UTF8.self)
}
