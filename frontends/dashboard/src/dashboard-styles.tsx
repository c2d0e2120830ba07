// The dashboard remote's styles, hoisted once into <head> through React 19's <style href precedence>
// (like the shell's pages), so the remote brings its look without relying on the bundler's CSS
// pipeline across module federation. Colours come from the kit theme's variables.

const CSS = `
.kbd-page { display: grid; gap: 1.6rem; max-width: 1240px; }
.kbd-page h1 { margin: 0; }
.kbd-muted { color: var(--kb-text-muted); }
.kbd-small { font-size: 0.85rem; }
.kbd-section-title { font-size: 0.9rem; letter-spacing: 0.24em; text-transform: uppercase; color: var(--kb-teal); margin: 0 0 0.9rem; }
.kbd-header { display: flex; flex-wrap: wrap; align-items: flex-end; justify-content: space-between; gap: 1rem; }
.kbd-header p { margin: 0.25rem 0 0; }

/* Dashboard: the first-run sample library */
.kbd-samples { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 1rem 1.5rem; padding: 1.2rem 1.5rem; }
.kbd-samples__text { flex: 1 1 32rem; display: grid; gap: 0.4rem; }
.kbd-samples__text p { margin: 0; color: var(--kb-text-muted); }
.kbd-samples__text .kbd-section-title { margin: 0; }
.kbd-samples__notice { color: var(--kb-teal) !important; }

/* Dashboard: welcome header */
.kbd-welcome { display: flex; align-items: center; justify-content: space-between; gap: 1.5rem; padding: 1.6rem 1.8rem; overflow: hidden; }
.kbd-welcome::marker { content: none; }
.kbd-welcome__text { display: grid; gap: 0.55rem; position: relative; z-index: 1; }
.kbd-welcome__greeting { margin: 0; font: 500 clamp(1.1rem, 2.2vw, 1.45rem)/1.3 var(--kb-font-display); letter-spacing: 0.04em; }
.kbd-welcome__name { color: var(--kb-gold); text-shadow: var(--kb-glow-gold); }
.kbd-welcome__art { flex: none; opacity: 0.85; }
.kbd-welcome__bg { position: absolute; inset: 0; background: var(--kb-sunburst); pointer-events: none; opacity: 0.8; }

/* Dashboard: clickable cards and metrics */
.kbd-cards, .kbd-metrics { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(220px, 1fr)); }
.kbd-card { all: unset; box-sizing: border-box; display: grid; gap: 0.55rem; align-content: start; padding: 1.25rem 1.35rem; cursor: pointer;
  color: var(--kb-text); text-decoration: none; transition: transform 160ms var(--kb-ease), box-shadow 200ms var(--kb-ease), border-color 200ms; }
.kbd-card:hover { transform: translateY(-2px); box-shadow: var(--kb-glow-teal), 0 18px 50px rgba(0,0,0,.45); text-shadow: none; }
.kbd-card:focus-visible { outline: 2px solid var(--kb-teal); outline-offset: 3px; }
.kbd-card__icon { display: inline-grid; place-items: center; width: 46px; height: 46px; border-radius: 50%; color: var(--kb-gold);
  border: 1px solid var(--kb-line-strong); background: radial-gradient(circle, rgba(245,197,66,.12), transparent 70%); }
.kbd-card__title { font: 600 1.05rem/1.25 var(--kb-font-display); letter-spacing: 0.06em; color: var(--kb-gold-soft); }
.kbd-card__text { font-size: 0.9rem; color: var(--kb-text-muted); }
.kbd-card__go { font-size: 0.78rem; letter-spacing: 0.18em; text-transform: uppercase; color: var(--kb-teal); }
.kbd-metric { padding: 1.2rem 1.35rem; display: grid; gap: 0.3rem; }
.kbd-metric__label { font-size: 0.75rem; letter-spacing: 0.2em; text-transform: uppercase; color: var(--kb-gold-soft); }
.kbd-metric__value { font: 600 clamp(1.8rem, 3vw, 2.3rem)/1.1 var(--kb-font-display); color: var(--kb-teal); text-shadow: var(--kb-glow-teal); font-variant-numeric: tabular-nums; }
.kbd-metric__hint { font-size: 0.82rem; color: var(--kb-text-dim); }
.kbd-metric[aria-busy='true'] .kbd-metric__value { opacity: 0.45; }

/* Dashboard: recent activity */
.kbd-activity { padding: 1.3rem 1.5rem; }
.kbd-activity__list { list-style: none; margin: 0; padding: 0; display: grid; }
.kbd-activity__item { display: grid; grid-template-columns: auto 1fr auto; gap: 0.9rem; align-items: center; padding: 0.7rem 0; border-bottom: 1px solid rgba(245,197,66,.1); }
.kbd-activity__item:last-child { border-bottom: 0; }
.kbd-activity__dot { width: 34px; height: 34px; border-radius: 50%; display: grid; place-items: center; border: 1px solid currentColor; }
.kbd-activity__dot[data-type='processed'] { color: var(--kb-success); }
.kbd-activity__dot[data-type='failed'] { color: var(--kb-danger); }
.kbd-activity__dot[data-type='uploaded'] { color: var(--kb-teal); }
.kbd-activity__dot[data-type='deleted'] { color: var(--kb-text-dim); }
.kbd-activity__dot[data-type='added'] { color: var(--kb-gold); }
.kbd-activity__dot[data-type='edited'] { color: var(--kb-gold); }
.kbd-activity__more { margin: 0.9rem 0 0; text-align: right; }
.kbd-activity__time { font-size: 0.8rem; color: var(--kb-text-dim); white-space: nowrap; }
.kbd-empty { display: grid; justify-items: center; gap: 0.9rem; padding: 1.6rem 1rem; text-align: center; color: var(--kb-text-muted); }
.kbd-empty p { margin: 0; }

/* Processing Hub */
.kbd-hub { display: grid; gap: 1.25rem; grid-template-columns: minmax(0, 1.05fr) minmax(0, 1fr); align-items: start; }
.kbd-panel { padding: 1.35rem 1.5rem; display: grid; gap: 1rem; }
.kbd-panel h2 { margin: 0; font-size: 1.05rem; color: var(--kb-gold); }
.kbd-drop { position: relative; display: grid; justify-items: center; gap: 0.6rem; padding: 2rem 1rem; text-align: center; cursor: pointer;
  border: 2px dashed rgba(46,230,214,.45); border-radius: var(--kb-radius); background: rgba(46,230,214,.035);
  transition: border-color 160ms, background 160ms, box-shadow 160ms; }
.kbd-drop:hover, .kbd-drop:focus-within { border-color: var(--kb-teal); box-shadow: var(--kb-glow-teal); }
.kbd-drop[data-active='true'] { border-color: var(--kb-gold); background: rgba(245,197,66,.08); box-shadow: var(--kb-glow-gold); }
.kbd-drop__icon { color: var(--kb-teal); }
.kbd-drop__title { font: 600 1.05rem/1.3 var(--kb-font-display); letter-spacing: 0.05em; }
.kbd-drop input[type='file'] { position: absolute; width: 1px; height: 1px; opacity: 0; pointer-events: none; }
.kbd-row { display: flex; flex-wrap: wrap; gap: 0.6rem; align-items: center; }
.kbd-row > .kb-input { flex: 1 1 14rem; }
.kbd-field-hint { font-size: 0.78rem; color: var(--kb-text-dim); }
.kbd-field-hint[data-over='true'] { color: var(--kb-danger); }
.kbd-segmented { display: inline-flex; border: 1px solid var(--kb-line-strong); border-radius: 999px; padding: 3px; gap: 3px; margin: 0; }
.kbd-segmented legend { padding: 0; margin-bottom: 0.45rem; font-size: 0.78rem; letter-spacing: 0.16em; text-transform: uppercase; color: var(--kb-gold-soft); float: left; width: 100%; }
.kbd-segmented label { position: relative; }
.kbd-segmented input { position: absolute; opacity: 0; inset: 0; cursor: pointer; margin: 0; }
.kbd-segmented span { display: inline-block; padding: 0.42rem 1rem; border-radius: 999px; font-size: 0.85rem; letter-spacing: 0.06em; color: var(--kb-text-muted); cursor: pointer; }
.kbd-segmented input:checked + span { background: linear-gradient(135deg, var(--kb-gold), var(--kb-brass)); color: var(--kb-night); font-weight: 600; }
.kbd-segmented input:focus-visible + span { outline: 2px solid var(--kb-teal); outline-offset: 2px; }
.kbd-dest { border: 0; padding: 0; margin: 0; display: grid; gap: 0.4rem; }
.kbd-dest legend { padding: 0; margin-bottom: 0.4rem; font-size: 0.78rem; letter-spacing: 0.16em; text-transform: uppercase; color: var(--kb-gold-soft); }
.kbd-queue__head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 0.75rem; }
.kbd-queue { list-style: none; margin: 0; padding: 0; display: grid; gap: 0.7rem; }
.kbd-item { display: grid; grid-template-columns: 56px minmax(0, 1fr) auto; gap: 0.9rem; align-items: center; padding: 0.8rem 0.9rem;
  border: 1px solid var(--kb-line); border-radius: var(--kb-radius-sm); background: rgba(7,8,15,.45); }
.kbd-item[data-status='completed'] { border-color: rgba(78,240,160,.45); }
.kbd-item[data-status='failed'] { border-color: rgba(255,90,122,.55); }
.kbd-item[data-status='processing'] { border-color: rgba(46,230,214,.55); box-shadow: 0 0 0 1px rgba(46,230,214,.15), var(--kb-glow-teal); }
.kbd-thumb { width: 56px; height: 56px; border-radius: var(--kb-radius-sm); display: grid; place-items: center; overflow: hidden;
  background: rgba(245,197,66,.06); border: 1px solid var(--kb-line); color: var(--kb-gold); font-size: 0.65rem; letter-spacing: .08em; }
.kbd-thumb img { width: 100%; height: 100%; object-fit: cover; display: block; }
.kbd-thumb__ext { display: grid; justify-items: center; gap: 2px; }
.kbd-item__main { display: grid; gap: 0.3rem; min-width: 0; }
.kbd-item__name { font-weight: 600; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.kbd-item__meta { display: flex; flex-wrap: wrap; gap: 0.35rem 0.8rem; font-size: 0.8rem; color: var(--kb-text-muted); align-items: center; }
.kbd-item__error { color: #ffc2cf; font-size: 0.85rem; margin: 0; }
.kbd-item__note { color: var(--kb-warning); font-size: 0.85rem; margin: 0; }
.kbd-item__actions { display: flex; flex-direction: column; gap: 0.4rem; align-items: stretch; }
.kbd-status { display: inline-flex; align-items: center; gap: 0.35rem; padding: 0.1rem 0.55rem; border-radius: 999px; border: 1px solid currentColor;
  font-size: 0.72rem; letter-spacing: 0.1em; text-transform: uppercase; }
.kbd-status[data-status='ready'], .kbd-status[data-status='queued'] { color: var(--kb-gold); }
.kbd-status[data-status='processing'] { color: var(--kb-teal); }
.kbd-status[data-status='completed'] { color: var(--kb-success); }
.kbd-status[data-status='failed'] { color: var(--kb-danger); }
.kbd-status[data-status='cancelled'] { color: var(--kb-text-dim); }
.kbd-errors { padding: 1rem 1.2rem; border: 1px solid var(--kb-danger); border-left-width: 4px; border-radius: var(--kb-radius-sm); background: rgba(255,90,122,.08); }
.kbd-errors__head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; }
.kbd-errors h2 { margin: 0; font-size: 1rem; color: #ffd3dc; text-shadow: none; }
.kbd-errors ul { margin: 0.6rem 0 0; padding-left: 1.2rem; color: #ffd3dc; font-size: 0.9rem; display: grid; gap: 0.25rem; }
.kbd-batch { display: grid; gap: 0.6rem; }
.kbd-link { color: var(--kb-teal); font-weight: 600; }

/* Media Hub */
.kbd-toolbar { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: end; justify-content: space-between; }
.kbd-toolbar .kb-field { margin: 0; min-width: 12rem; }
.kbd-media { list-style: none; margin: 0; padding: 0; display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); }
.kbd-media-card { display: grid; grid-template-rows: auto 1fr; overflow: hidden; }
.kbd-media-card__preview { position: relative; height: 160px; display: grid; place-items: center; background: rgba(7,8,15,.6); border-bottom: 1px solid var(--kb-line); color: var(--kb-gold); margin: 5px 5px 0; border-radius: var(--kb-radius-sm) var(--kb-radius-sm) 0 0; overflow: hidden; }
/* The whole photo, letterboxed: a grid item's height: 100% does not resolve, so the picture is laid over the box. */
.kbd-media-card__preview img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: contain; }
.kbd-preview__body { display: grid; gap: 0.8rem; max-height: 78vh; overflow: auto; }
.kbd-media-card__body { padding: 0.9rem 1rem 1rem; display: grid; gap: 0.45rem; align-content: start; }
.kbd-media-card__name { font-weight: 600; overflow-wrap: anywhere; }
.kbd-media-card__actions { display: flex; flex-wrap: wrap; gap: 0.4rem; margin-top: 0.35rem; }
.kbd-media-card__actions .kb-button { flex: 1 1 auto; }
.kbd-sentinel { height: 1px; }
.kbd-dialog-actions { display: flex; justify-content: flex-end; gap: 0.6rem; margin-top: 1.2rem; flex-wrap: wrap; }

@media (max-width: 1024px) { .kbd-hub { grid-template-columns: 1fr; } }
@media (max-width: 640px) {
  .kbd-welcome { padding: 1.2rem; }
  .kbd-welcome__art { display: none; }
  .kbd-cards { grid-template-columns: 1fr; gap: 0.75rem; }
  .kbd-card { padding: 1rem; grid-template-columns: auto 1fr; column-gap: 0.85rem; row-gap: 0.25rem; align-items: center; }
  .kbd-card__icon { grid-row: span 2; }
  .kbd-card__go { display: none; }
  /* One row, three equal choices: the pill never breaks onto a second line. */
  .kbd-segmented { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); }
  .kbd-segmented span { display: block; padding: 0.42rem 0.4rem; text-align: center; letter-spacing: 0; white-space: nowrap; }
  .kbd-metrics { grid-template-columns: 1fr 1fr; gap: 0.75rem; }
  .kbd-metric { padding: 0.9rem 1rem; }
  .kbd-metric__label { letter-spacing: 0.1em; font-size: 0.68rem; }
  .kbd-media-card__preview { height: 110px; }
  .kbd-item { grid-template-columns: 44px minmax(0, 1fr); }
  .kbd-thumb { width: 44px; height: 44px; }
  .kbd-item__actions { grid-column: 1 / -1; flex-direction: row; flex-wrap: wrap; }
  .kbd-activity__item { grid-template-columns: auto 1fr; }
  .kbd-activity__time { grid-column: 2; }
}
`;

export function DashboardStyles() {
  return (
    <style href="kaboodle-dashboard-remote" precedence="default">
      {CSS}
    </style>
  );
}
