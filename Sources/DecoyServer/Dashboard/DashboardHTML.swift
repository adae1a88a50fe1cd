/// The dashboard's page: its layout, filled by `DashboardScript`.
enum DashboardHTML {
    static let text = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>Decoy dashboard</title>
        <link rel="icon" href="data:,">
        <link rel="stylesheet" href="/__admin/dashboard/app.css">
        <script src="/__admin/dashboard/app.js" defer></script>
        </head>
        <body>
        <header>
          <h1>Decoy</h1>
          <span id="live" class="live off" role="status" aria-live="polite">connecting…</span>
          <span id="problem" class="problem" role="alert"></span>
          <span class="actions">
            <button type="button" id="reset-journal">Reset journal</button>
            <button type="button" id="reset-scenarios">Reset scenarios</button>
          </span>
        </header>
        <main>
          <section id="journal-section" aria-labelledby="journal-title">
            <h2 id="journal-title">Requests <span id="journal-count" class="count"></span></h2>
            <form id="journal-filter" class="filter" role="search">
              <label>Method <select id="filter-method" name="method">
                <option value="">any</option><option>GET</option><option>POST</option><option>PUT</option>
                <option>PATCH</option><option>DELETE</option><option>HEAD</option><option>OPTIONS</option>
              </select></label>
              <label>Path <input id="filter-path" name="path" type="search" placeholder="text in the path"></label>
              <label>Status <input id="filter-status" name="status" inputmode="numeric" size="4" placeholder="404"></label>
              <label><input id="filter-unmatched" name="unmatched" type="checkbox"> unmatched only</label>
            </form>
            <p id="skipped" class="skipped" hidden></p>
            <div class="scroll">
              <table id="journal" aria-describedby="journal-help">
                <thead><tr><th>time</th><th>method</th><th>target</th><th>status</th><th>stub</th><th>delay</th><th>fault</th></tr></thead>
                <tbody></tbody>
              </table>
            </div>
            <p id="journal-help" class="help">Newest first, live. Select a request (Enter) to open it.</p>
            <nav class="pager" aria-label="journal pages">
              <button type="button" id="journal-newer">Newer</button>
              <span id="journal-page"></span>
              <button type="button" id="journal-older">Older</button>
            </nav>
          </section>
          <section id="detail-section" aria-labelledby="detail-title" hidden>
            <h2 id="detail-title" tabindex="-1"></h2>
            <button type="button" id="detail-close" class="close" aria-label="Close">Close</button>
            <div id="detail"></div>
          </section>
          <section id="stubs-section" aria-labelledby="stubs-title">
            <h2 id="stubs-title">Stubs <span id="stubs-count" class="count"></span></h2>
            <form id="stubs-filter" class="filter" role="search">
              <label>Find <input id="stubs-text" type="search" placeholder="path, method or file"></label>
            </form>
            <div class="scroll">
              <table id="stubs">
                <thead><tr><th>route</th><th>name</th><th>answered</th><th>from</th><th>priority</th><th>scenario</th></tr></thead>
                <tbody></tbody>
              </table>
            </div>
            <nav class="pager" aria-label="stub pages">
              <button type="button" id="stubs-newer">Previous</button>
              <span id="stubs-page"></span>
              <button type="button" id="stubs-older">Next</button>
            </nav>
          </section>
          <section id="scenarios-section" aria-labelledby="scenarios-title">
            <h2 id="scenarios-title">Scenarios</h2>
            <ul id="scenarios"></ul>
          </section>
        </main>
        <dialog id="token-dialog" aria-labelledby="token-title">
          <form method="dialog" id="token-form">
            <h2 id="token-title">Admin token</h2>
            <p>This server's admin API needs its token (<code>--admin-token</code>).</p>
            <label>Token <input id="token" type="password" autocomplete="off" required></label>
            <button type="submit">Use</button>
          </form>
        </dialog>
        </body>
        </html>
        """#
}
