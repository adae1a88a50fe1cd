/// The dashboard's style: two columns, one on a narrow window.
enum DashboardStyle {
    static let text = #"""
        :root { color-scheme: light dark; --line: #8884; --accent: #2563eb; --bad: #c2410c; font: 14px/1.4 system-ui, sans-serif; }
        body { margin: 0; }
        header { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; padding: .5rem 1rem; border-bottom: 1px solid var(--line); }
        h1 { font-size: 1.2rem; margin: 0; }
        h2 { font-size: 1rem; margin: .25rem 0 .5rem; }
        .actions { margin-left: auto; display: flex; gap: .5rem; }
        .live::before { content: "●"; margin-right: .3em; }
        .live.on::before { color: #16a34a; }
        .live.off::before { color: var(--bad); }
        .problem { color: var(--bad); }
        main { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 1rem; padding: 1rem; }
        #journal-section, #detail-section { grid-column: 1; }
        #stubs-section, #scenarios-section { grid-column: 2; }
        #journal-section { grid-row: 1; }
        #stubs-section { grid-row: 1 / span 2; }
        section { min-width: 0; position: relative; }
        .scroll { overflow: auto; max-height: 60vh; border: 1px solid var(--line); }
        table { border-collapse: collapse; width: 100%; font-size: .9rem; }
        th, td { text-align: left; padding: .2rem .4rem; border-bottom: 1px solid var(--line); white-space: nowrap; }
        td.wrap { white-space: normal; overflow-wrap: anywhere; min-width: 10rem; }
        thead th { position: sticky; top: 0; background: Canvas; }
        tbody tr { cursor: pointer; }
        tbody tr:hover, tbody tr:focus { background: #2563eb22; outline: 2px solid var(--accent); outline-offset: -2px; }
        tr.selected { background: #2563eb33; }
        .unmatched { color: var(--bad); font-weight: 600; }
        .count, .help, .pager span { color: GrayText; font-weight: normal; }
        .filter { display: flex; flex-wrap: wrap; gap: .5rem; margin-bottom: .5rem; }
        .pager { display: flex; gap: .5rem; align-items: center; margin-top: .5rem; }
        .skipped { background: #f59e0b33; padding: .25rem .5rem; }
        pre { background: #8881; padding: .5rem; overflow: auto; max-height: 40vh; white-space: pre-wrap; overflow-wrap: anywhere; }
        dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 0 .75rem; margin: 0; }
        dt { font-weight: 600; } dd { margin: 0; overflow-wrap: anywhere; }
        .close { position: absolute; right: 0; top: 0; }
        .miss { border-left: 3px solid var(--bad); padding-left: .5rem; margin: .5rem 0; }
        .miss ul { margin: .25rem 0; }
        #scenarios { list-style: none; padding: 0; margin: 0; }
        #scenarios li { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; padding: .25rem 0; border-bottom: 1px solid var(--line); }
        button:focus-visible, input:focus-visible, select:focus-visible { outline: 2px solid var(--accent); }
        @media (max-width: 800px) {
          main { grid-template-columns: minmax(0, 1fr); }
          #journal-section, #detail-section, #stubs-section, #scenarios-section { grid-column: 1; grid-row: auto; }
          .actions { margin-left: 0; }
          .scroll { max-height: 50vh; }
        }
        """#
}
