import Decoy
import Foundation
import HTTPTypes

/// The dashboard: one page under `/__admin/dashboard`, its script and its style, all inside the
/// binary, so that it works with no network and nothing installed: `dashboard.html`, `app.js` and
/// `app.css` beside this file, embedded as package resources.
///
/// The page is a client of the admin API and nothing more: everything it shows comes from the
/// endpoints a script can call too, and every write it makes is a `POST`, `PUT` or `DELETE`.
/// Its policy lets only its own script run, so markup in a stub or a request could not run even
/// if the script put it into the page, which it never does (it builds text nodes).
enum DashboardPage {
    /// `GET /__admin/dashboard`, made once.
    static let html = file(PackageResources.dashboard_html, type: "text/html; charset=utf-8")
    /// `GET /__admin/dashboard/app.js`, made once.
    static let script = file(PackageResources.app_js, type: "text/javascript; charset=utf-8")
    /// `GET /__admin/dashboard/app.css`, made once.
    static let style = file(PackageResources.app_css, type: "text/css; charset=utf-8")

    private static func file(_ bytes: [UInt8], type: String) -> StubResponse {
        StubResponse(
            headerFields: [
                .contentType: type,
                .cacheControl: "no-store",
                HTTPField.Name("Content-Security-Policy")!:
                    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
                    + "img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff",
                HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ], body: Data(bytes))
    }
}
