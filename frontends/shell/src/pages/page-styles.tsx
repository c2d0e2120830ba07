// Styles shared by the shell's pages (landing, about, placeholders, 404, account pages).
// Hoisted once into <head> through React 19's <style href precedence>, so every lazily loaded page
// brings its own look without a global stylesheet import. Colours come from the kit theme variables.

const CSS = `
.kbp-page { min-height: 100vh; display: flex; flex-direction: column; position: relative; overflow-x: clip; }
.kbp-page::before { content: ''; position: absolute; inset: 0 0 auto 0; height: 560px; pointer-events: none; z-index: 0;
  background: var(--kb-sunburst, none); mask-image: linear-gradient(to bottom, #000 30%, transparent); opacity: 0.9; }
.kbp-page > * { position: relative; z-index: 1; }
.kbp-page--in-shell { min-height: 0; }
.kbp-account > header h1 { margin-bottom: 0.25rem; }
.kbp-nowrap { white-space: nowrap; }
.kbp-page--in-shell::before { display: none; }
.kbp-page--in-shell .kbp-main { flex: 1; display: flex; flex-direction: column; }
.kbp-container { width: 100%; }
.kbp-main { flex: 1; display: flex; flex-direction: column; }
.kbp-container { width: min(1240px, 100% - 2.5rem); margin-inline: auto; }

/* top bar of the public pages */
.kbp-topbar { display: flex; align-items: center; justify-content: space-between; gap: 1rem; padding: 1.1rem 0; }
.kbp-brand { display: inline-flex; align-items: center; gap: 0.6rem; color: var(--kb-gold, #f5c542); text-decoration: none;
  font: 600 1.05rem/1 var(--kb-font-display, sans-serif); letter-spacing: 0.34em; text-transform: uppercase; }
.kbp-brand:hover { text-shadow: var(--kb-glow-gold, none); }
.kbp-nav { display: flex; align-items: center; gap: 1.4rem; }
.kbp-nav a { color: var(--kb-text-muted, #a3a8c3); text-decoration: none; font-size: 0.82rem; letter-spacing: 0.2em; text-transform: uppercase; }
.kbp-nav a:hover, .kbp-nav a[aria-current='page'] { color: var(--kb-teal, #2ee6d6); }
.kbp-footer { margin-top: auto; padding: 2.2rem 0 1.6rem; color: var(--kb-text-dim, #6f7594); font-size: 0.82rem; }
.kbp-footer-inner { display: flex; flex-wrap: wrap; gap: 0.6rem 1.5rem; justify-content: space-between; align-items: center;
  border-top: 1px solid var(--kb-line, rgba(245,197,66,.28)); padding-top: 1.2rem; }
.kbp-footer-links { display: inline-flex; flex-wrap: wrap; gap: 0.4rem 1.2rem; }
.kbp-footer a { color: var(--kb-text-muted, #a3a8c3); text-decoration: none; }
.kbp-footer a:hover { color: var(--kb-teal, #2ee6d6); }

.kbp-deco-rule { display: flex; align-items: center; gap: 0.8rem; color: var(--kb-gold, #f5c542); margin: 0.4rem 0 1.1rem; }
.kbp-deco-rule::before, .kbp-deco-rule::after { content: ''; height: 1px; flex: 1; background: linear-gradient(90deg, transparent, var(--kb-gold, #f5c542)); opacity: 0.7; }
.kbp-deco-rule::after { background: linear-gradient(90deg, var(--kb-gold, #f5c542), transparent); }
.kbp-deco-rule i { width: 8px; height: 8px; rotate: 45deg; background: var(--kb-magenta, #ff4fd8); box-shadow: 0 0 10px var(--kb-magenta, #ff4fd8); }

/* notices under the top bar */
.kbp-notices { display: grid; gap: 0.75rem; margin-bottom: 1rem; }
.kbp-welcome { display: flex; align-items: center; gap: 1rem 1.5rem; flex-wrap: wrap; justify-content: space-between; padding: 0.95rem 1.4rem;
  border: 1px solid rgba(46,230,214,.45); border-radius: var(--kb-radius, 10px);
  background: linear-gradient(90deg, rgba(46,230,214,.10), rgba(139,92,246,.10) 60%, rgba(255,79,216,.08)); box-shadow: 0 0 30px rgba(46,230,214,.08); backdrop-filter: blur(6px); }
.kbp-welcome h2 { margin: 0; font-size: 1.02rem; color: var(--kb-teal, #2ee6d6); text-shadow: var(--kb-glow-teal, none); letter-spacing: 0.12em; text-transform: uppercase; }
.kbp-welcome p { margin: 0.15rem 0 0; color: var(--kb-text, #efeadb); }

/* landing */
.kbp-landing-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1.08fr); gap: 3.2rem; align-items: start; padding: 1.2rem 0 2rem; }
@media (max-width: 1024px) { .kbp-landing-grid { grid-template-columns: minmax(0, 1fr); gap: 2.4rem; } }
.kbp-hero { display: flex; flex-direction: column; align-items: flex-start; }
.kbp-stage { position: relative; width: 100%; max-width: 520px; height: 300px; display: grid; place-items: center; margin-bottom: 0.6rem; }
.kbp-stage-halo { position: absolute; width: 270px; height: 270px; border-radius: 50%;
  background: radial-gradient(circle, rgba(139,92,246,.35), rgba(46,230,214,.08) 55%, transparent 70%); }
.kbp-stage-ring { position: absolute; width: 286px; height: 286px; border-radius: 50%; border: 1px dashed rgba(245,197,66,.35); }
.kbp-stage-ring::after { content: ''; position: absolute; inset: 16px; border-radius: 50%; border: 1px solid rgba(46,230,214,.25); }
.kbp-stage-gears { position: absolute; left: 0; bottom: 0; opacity: 0.85; }
.kbp-stage .kbp-stage-gears-top { position: absolute; right: 4%; top: 4px; opacity: 0.75; transform: scaleX(-1); }
.kbp-mascot-button { position: relative; display: grid; place-items: center; padding: 8px; border: 0; border-radius: 50%; background: none; cursor: pointer; color: inherit;
  transition: transform 200ms var(--kb-ease, ease); }
.kbp-mascot-button:hover { transform: translateY(-3px) rotate(-2deg); }
.kbp-mascot-button:focus-visible { outline: 2px solid var(--kb-teal, #2ee6d6); outline-offset: 6px; }
.kbp-mascot-hint { position: absolute; bottom: -2px; left: 50%; translate: -50% 0; white-space: nowrap; font-size: 0.7rem; letter-spacing: 0.28em;
  text-transform: uppercase; color: var(--kb-text-dim, #6f7594); }
.kbp-title { margin: 0.1rem 0 0.3rem; font: 600 clamp(2.4rem, 5.2vw, 4.3rem)/1 var(--kb-font-display, sans-serif); letter-spacing: 0.12em; text-transform: uppercase;
  background: linear-gradient(180deg, #fff3c4 0%, var(--kb-gold, #f5c542) 45%, #b9812a 100%); -webkit-background-clip: text; background-clip: text; color: transparent;
  filter: drop-shadow(0 0 14px rgba(245,197,66,.35)); text-shadow: none; }
.kbp-tagline { margin: 0.4rem 0 0.8rem; font: 500 clamp(1.08rem, 1.8vw, 1.32rem)/1.4 var(--kb-font-display, sans-serif); color: var(--kb-teal, #2ee6d6);
  text-shadow: var(--kb-glow-teal, none); letter-spacing: 0.04em; }
.kbp-description { margin: 0 0 1.6rem; max-width: 60ch; color: var(--kb-text-muted, #a3a8c3); font-size: 1.02rem; line-height: 1.65; }
.kbp-actions { display: flex; flex-wrap: wrap; gap: 0.8rem; }
.kbp-actions .kb-button { min-width: 128px; }
.kbp-audiences { display: flex; flex-wrap: wrap; gap: 0.5rem; margin: 1.6rem 0 0; padding: 0; list-style: none; }
.kbp-audiences li { padding: 0.28rem 0.75rem; border: 1px solid var(--kb-line, rgba(245,197,66,.28)); border-radius: 999px; font-size: 0.75rem;
  letter-spacing: 0.14em; text-transform: uppercase; color: var(--kb-gold-soft, #e8d8a8); background: rgba(245,197,66,.04); }

.kbp-capabilities { display: grid; gap: 0.9rem; }
.kbp-capabilities-head { display: flex; align-items: baseline; justify-content: space-between; gap: 1rem; margin-bottom: 0.2rem; }
.kbp-capabilities-head h2 { margin: 0; font-size: 0.8rem; letter-spacing: 0.36em; text-transform: uppercase; color: var(--kb-gold-soft, #e8d8a8); }
.kbp-capabilities-head span { font-size: 0.78rem; color: var(--kb-text-dim, #6f7594); }
.kbp-panel { border: 1px solid var(--kb-line, rgba(245,197,66,.28)); border-radius: var(--kb-radius, 10px); overflow: hidden;
  background: linear-gradient(180deg, rgba(21,25,54,.88), rgba(17,20,42,.88)); transition: border-color 250ms, box-shadow 250ms; }
.kbp-panel[data-open='true'] { border-color: var(--kb-line-strong, rgba(245,197,66,.6)); box-shadow: 0 0 0 1px rgba(245,197,66,.18), 0 16px 40px rgba(0,0,0,.35), 0 0 32px rgba(46,230,214,.08); }
.kbp-panel h3 { margin: 0; }
.kbp-panel-toggle { all: unset; box-sizing: border-box; width: 100%; display: grid; grid-template-columns: auto 1fr auto; align-items: center; gap: 1rem;
  padding: 1rem 1.2rem; cursor: pointer; }
.kbp-panel-toggle:focus-visible { outline: 2px solid var(--kb-teal, #2ee6d6); outline-offset: -4px; border-radius: var(--kb-radius, 10px); }
.kbp-panel-toggle:hover .kbp-panel-title { color: #fff6d8; }
.kbp-badge { width: 46px; height: 46px; display: grid; place-items: center; color: var(--kb-teal, #2ee6d6); position: relative; }
.kbp-badge::before { content: ''; position: absolute; inset: 5px; rotate: 45deg; border: 1px solid var(--kb-gold, #f5c542); border-radius: 4px;
  background: linear-gradient(135deg, rgba(245,197,66,.14), rgba(46,230,214,.06)); }
.kbp-badge svg { position: relative; }
.kbp-panel[data-open='true'] .kbp-badge { color: var(--kb-night, #07080f); }
.kbp-panel[data-open='true'] .kbp-badge::before { background: linear-gradient(135deg, var(--kb-gold, #f5c542), var(--kb-teal, #2ee6d6)); box-shadow: var(--kb-glow-gold, none); }
.kbp-panel-title { display: block; font: 600 1.08rem/1.25 var(--kb-font-display, sans-serif); letter-spacing: 0.06em; color: var(--kb-gold, #f5c542); }
.kbp-panel-summary { display: block; font-weight: 400; margin-top: 0.2rem; color: var(--kb-text-muted, #a3a8c3); font-size: 0.9rem; line-height: 1.45; }
.kbp-chevron { width: 30px; height: 30px; display: grid; place-items: center; border-radius: 50%; border: 1px solid var(--kb-line, rgba(245,197,66,.28));
  color: var(--kb-gold, #f5c542); transition: transform 300ms var(--kb-ease, ease), background 300ms; }
.kbp-panel[data-open='true'] .kbp-chevron { transform: rotate(180deg); background: rgba(245,197,66,.12); }
.kbp-panel-body { padding: 0 1.2rem 1.2rem; animation: kbp-unfold 320ms var(--kb-ease, ease); }
@keyframes kbp-unfold { from { opacity: 0; transform: translateY(-6px); } }
.kbp-details { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0.7rem; margin: 0; padding: 0.9rem 0 0; list-style: none;
  border-top: 1px solid rgba(245,197,66,.16); }
@media (max-width: 640px) { .kbp-details { grid-template-columns: minmax(0, 1fr); } }
.kbp-detail { display: grid; grid-template-columns: auto 1fr; align-content: start; gap: 0.2rem 0.7rem; padding: 0.75rem 0.8rem; border-radius: var(--kb-radius-sm, 6px);
  background: rgba(7,8,15,.45); border: 1px solid rgba(46,230,214,.12); }
.kbp-detail svg { grid-row: span 2; color: var(--kb-magenta, #ff4fd8); margin-top: 2px; }
.kbp-detail strong { color: var(--kb-text, #efeadb); font-size: 0.92rem; letter-spacing: 0.02em; }
.kbp-detail span { color: var(--kb-text-muted, #a3a8c3); font-size: 0.84rem; line-height: 1.45; }

/* dialogs opened from the landing page */
.kbp-dialog-hero { display: flex; gap: 1.2rem; align-items: center; margin-bottom: 0.8rem; }
@media (max-width: 475px) { .kbp-dialog-hero { flex-direction: column; align-items: flex-start; } }
.kbp-dialog-text p { margin: 0 0 0.8rem; color: var(--kb-text-muted, #a3a8c3); line-height: 1.6; }
.kbp-dialog-text strong { color: var(--kb-text, #efeadb); }
.kbp-facts { display: grid; grid-template-columns: repeat(3, minmax(0,1fr)); gap: 0.6rem; margin: 0.4rem 0 1rem; padding: 0; list-style: none; }
@media (max-width: 475px) { .kbp-facts { grid-template-columns: minmax(0,1fr); } }
.kbp-facts li { padding: 0.6rem 0.7rem; border: 1px solid var(--kb-line, rgba(245,197,66,.28)); border-radius: var(--kb-radius-sm, 6px); font-size: 0.82rem; color: var(--kb-text-muted, #a3a8c3); }
.kbp-facts b { display: block; font: 600 0.7rem/1.4 var(--kb-font-display, sans-serif); letter-spacing: 0.2em; text-transform: uppercase; color: var(--kb-gold, #f5c542); }
.kbp-dialog-actions { display: flex; flex-wrap: wrap; gap: 0.6rem; justify-content: flex-end; margin-top: 0.6rem; }

/* about */
.kbp-hero-band { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 2rem; align-items: center; padding: 1.5rem 0 1rem; }
@media (max-width: 768px) { .kbp-hero-band { grid-template-columns: minmax(0, 1fr); } .kbp-hero-band .kb-art { justify-self: center; } }
.kbp-lead { font-size: 1.1rem; line-height: 1.7; color: var(--kb-text-muted, #a3a8c3); max-width: 68ch; }
.kbp-section { margin: 2.4rem 0; }
.kbp-section > h2 { font-size: clamp(1.4rem, 2.4vw, 1.9rem); color: var(--kb-gold, #f5c542); letter-spacing: 0.08em; }
.kbp-feature-grid { display: grid; grid-template-columns: repeat(4, minmax(0, 1fr)); gap: 1rem; margin: 0; padding: 0; list-style: none; }
@media (max-width: 1024px) { .kbp-feature-grid { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
@media (max-width: 475px) { .kbp-feature-grid { grid-template-columns: minmax(0, 1fr); } }
.kbp-feature { padding: 1.1rem 1.1rem 1.2rem; border: 1px solid var(--kb-line, rgba(245,197,66,.28)); border-radius: var(--kb-radius, 10px);
  background: linear-gradient(180deg, rgba(21,25,54,.85), rgba(11,13,26,.85)); }
.kbp-feature svg { color: var(--kb-teal, #2ee6d6); margin-bottom: 0.5rem; }
.kbp-feature h3 { font-size: 1rem; color: var(--kb-text, #efeadb); margin: 0 0 0.35rem; }
.kbp-feature p { margin: 0; font-size: 0.88rem; line-height: 1.55; color: var(--kb-text-muted, #a3a8c3); }
.kbp-workflow { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1.6rem; counter-reset: part; }
@media (max-width: 1024px) { .kbp-workflow { grid-template-columns: minmax(0, 1fr); } }
.kbp-workflow > li { display: flex; }
.kbp-workflow .kb-ornament { --kb-ornament-pad: 1.8rem 1.4rem 1.4rem; flex: 1; }
.kbp-workflow h3 { margin: 0.3rem 0 0.5rem; color: var(--kb-teal, #2ee6d6); font-size: 1.12rem; }
.kbp-workflow p { margin: 0 0 0.7rem; color: var(--kb-text-muted, #a3a8c3); line-height: 1.6; font-size: 0.93rem; }
.kbp-workflow ul { margin: 0; padding-left: 1.1rem; color: var(--kb-text, #efeadb); font-size: 0.88rem; line-height: 1.7; }
.kbp-workflow li::marker { color: var(--kb-magenta, #ff4fd8); }
.kbp-part-number { font: 600 2.4rem/1 var(--kb-font-display, sans-serif); color: transparent; -webkit-text-stroke: 1px var(--kb-gold, #f5c542); letter-spacing: 0.06em; }

/* placeholders and 404 */
.kbp-centre { flex: 1; display: grid; place-items: center; padding: 2rem 0 3rem; }
/* the pages mailed links open (verify-email, reset-password) */
.kbp-link-card { max-width: 520px; }
.kbp-link-card .kb-banner { text-align: left; margin: 0.9rem 0; }
.kbp-link-form { text-align: left; margin: 1.2rem 0 0.6rem; }
.kbp-placeholder { text-align: center; max-width: 620px; width: 100%; --kb-ornament-pad: 2.6rem 2rem 2.2rem; }
.kbp-placeholder h1 { font-size: clamp(1.7rem, 3vw, 2.3rem); }
.kbp-placeholder p { color: var(--kb-text-muted, #a3a8c3); line-height: 1.6; }
.kbp-coming { font: 500 1.15rem/1.5 var(--kb-font-display, sans-serif); color: var(--kb-teal, #2ee6d6) !important; text-shadow: var(--kb-glow-teal, none); letter-spacing: 0.04em; }
.kbp-placeholder-art { display: flex; justify-content: center; align-items: flex-end; gap: 0.5rem; margin-bottom: 1rem; }
.kbp-placeholder .kbp-404-code { margin: 0; font: 700 clamp(5.5rem, 16vw, 9.5rem)/0.9 var(--kb-font-display, sans-serif); letter-spacing: 0.12em;
  background: linear-gradient(180deg, #ffe9ff, var(--kb-magenta, #ff4fd8) 55%, #7d2bd1); -webkit-background-clip: text; background-clip: text; color: transparent;
  filter: drop-shadow(0 0 18px rgba(255,79,216,.45)); }
.kbp-404-links { display: flex; flex-wrap: wrap; gap: 0.8rem; justify-content: center; margin-top: 1.4rem; }
.kbp-link-button { text-decoration: none; }
.kbp-link-button:hover { text-shadow: none; }

/* account pages (inside the app shell) */
.kbp-account { display: grid; gap: 1.6rem; max-width: 880px; }
.kbp-account-head { display: flex; align-items: center; gap: 1rem; }
.kbp-account-head h1 { margin: 0; }
.kbp-account-head p { margin: 0.2rem 0 0; color: var(--kb-text-muted, #a3a8c3); }
.kbp-card { --kb-ornament-pad: 1.8rem 1.6rem 1.5rem; }
.kbp-card h2 { font-size: 1.1rem; color: var(--kb-gold, #f5c542); margin-bottom: 1rem; letter-spacing: 0.1em; text-transform: uppercase; }
.kbp-form-row { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 0 1rem; align-items: start; }
.kbp-form-row > .kb-field { align-content: start; }
@media (max-width: 640px) { .kbp-form-row { grid-template-columns: minmax(0, 1fr); } }
.kbp-form-actions { display: flex; align-items: center; flex-wrap: wrap; gap: 0.8rem; margin-top: 0.4rem; }
.kbp-form-actions .kb-banner { flex: 1 1 260px; }
.kbp-field-hint { font-size: 0.8rem; color: var(--kb-text-dim, #6f7594); overflow-wrap: anywhere; }
.kbp-field-hint[data-over='true'] { color: var(--kb-danger, #ff5a7a); }
.kbp-field-error { font-size: 0.84rem; color: var(--kb-danger, #ff5a7a); margin: 0; }
.kbp-readonly { opacity: 0.75; cursor: not-allowed; }
.kbp-choices { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 0.7rem; border: 0; padding: 0; margin: 0 0 0.9rem; }
@media (max-width: 640px) { .kbp-choices { grid-template-columns: minmax(0, 1fr); } }
.kbp-choices legend { font-size: 0.78rem; letter-spacing: 0.16em; text-transform: uppercase; color: var(--kb-gold-soft, #e8d8a8); margin-bottom: 0.45rem; padding: 0; }
.kbp-choice { position: relative; display: grid; gap: 0.2rem; padding: 0.8rem 0.9rem 0.8rem 2.6rem; border: 1px solid var(--kb-line, rgba(245,197,66,.28)); border-radius: var(--kb-radius-sm, 6px);
  cursor: pointer; background: rgba(7,8,15,.45); transition: border-color 150ms, box-shadow 150ms; }
.kbp-choice input { position: absolute; left: 0.9rem; top: 0.95rem; width: 1rem; height: 1rem; accent-color: var(--kb-teal, #2ee6d6); margin: 0; }
.kbp-choice strong { font-size: 0.92rem; color: var(--kb-text, #efeadb); }
.kbp-choice span { font-size: 0.8rem; color: var(--kb-text-muted, #a3a8c3); line-height: 1.4; }
.kbp-choice:has(input:checked) { border-color: var(--kb-teal, #2ee6d6); box-shadow: var(--kb-glow-teal, none); }
.kbp-choice:has(input:focus-visible) { outline: 2px solid var(--kb-teal, #2ee6d6); outline-offset: 2px; }
.kbp-role { display: inline-block; padding: 0.1rem 0.55rem; border-radius: 999px; font-size: 0.72rem; letter-spacing: 0.14em; text-transform: uppercase;
  border: 1px solid var(--kb-line, rgba(245,197,66,.28)); color: var(--kb-gold-soft, #e8d8a8); }
.kbp-role[data-role='admin'] { border-color: var(--kb-magenta, #ff4fd8); color: var(--kb-magenta, #ff4fd8); }
.kbp-muted { color: var(--kb-text-muted, #a3a8c3); }
.kbp-denied { display: flex; gap: 1.2rem; align-items: center; }
@media (max-width: 640px) { .kbp-denied { flex-direction: column; text-align: center; } }

/* clockwork test bench */
.kbp-bench { display: grid; grid-template-columns: minmax(0, 1.1fr) minmax(0, 1fr); gap: 1.6rem; align-items: start; padding-bottom: 2rem; }
@media (max-width: 1024px) { .kbp-bench { grid-template-columns: minmax(0, 1fr); } }
.kbp-bench-clock { display: grid; justify-items: center; gap: 1.2rem; }
.kbp-bench-controls { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: center; }
.kbp-range { width: 100%; accent-color: var(--kb-teal, #2ee6d6); }
.kbp-specimens { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 1rem; }
.kbp-specimen { display: grid; justify-items: center; align-content: start; gap: 0.6rem; padding: 1rem; min-height: 170px; border: 1px solid var(--kb-line, rgba(245,197,66,.28));
  border-radius: var(--kb-radius, 10px); background: rgba(7,8,15,.4); position: relative; }
.kbp-specimens .kbp-specimen { margin: 0; min-width: 0; }
.kbp-specimen .kb-art { max-width: 100%; }
.kbp-specimen .kb-art svg { max-width: 100%; height: auto; }
.kbp-specimen figcaption { font-size: 0.74rem; letter-spacing: 0.22em; text-transform: uppercase; color: var(--kb-text-dim, #6f7594); }

@media (max-width: 640px) {
  .kbp-nav { gap: 0.85rem; }
  .kbp-nav a { font-size: 0.7rem; letter-spacing: 0.1em; }
  .kbp-nav .kb-button { white-space: nowrap; padding-inline: 0.6rem; }
  .kbp-brand span { display: none; }
  .kbp-stage { height: 250px; }
  .kbp-actions { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); width: 100%; gap: 0.5rem; }
  .kbp-actions .kb-button { min-width: 0; padding-inline: 0.4rem; font-size: 0.86rem; letter-spacing: 0.06em; }
  .kbp-capabilities-head span { display: none; }
  .kbp-panel-toggle { gap: 0.75rem; padding: 0.9rem 0.9rem; }
  .kbp-badge { width: 38px; height: 38px; }
  .kbp-panel-summary { font-size: 0.85rem; }
  .kbp-panel-body { padding: 0 0.9rem 0.9rem; }
  .kbp-welcome { padding: 0.9rem 1rem; }
}
@media (prefers-reduced-motion: reduce) { .kbp-panel-body { animation: none; } .kbp-mascot-button { transition: none; } }
`;

export function PageStyles() {
  return (
    <style href="kaboodle-pages" precedence="kaboodle-pages">
      {CSS}
    </style>
  );
}
