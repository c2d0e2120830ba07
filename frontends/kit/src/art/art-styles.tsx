// The art's CSS (animations, reduced motion, widget housing). Rendered through React 19's
// <style href precedence> so it is hoisted into <head> once, however many art pieces are on screen,
// and works in any host or remote without depending on a bundler's CSS pipeline.
// Colours use the kit theme's variables with literal fallbacks so the art renders on its own.

export const ART_CSS = `
.kb-art { display: inline-block; line-height: 0; }
.kb-art svg { overflow: visible; }
.kb-art-spin { transform-box: view-box; animation: kb-art-spin var(--kb-art-period, 12s) linear infinite; }
.kb-art-spin-rev { transform-box: view-box; animation: kb-art-spin var(--kb-art-period, 12s) linear infinite reverse; }
@keyframes kb-art-spin { to { transform: rotate(360deg); } }

.kb-art-pendulum-arm { transform-origin: 50% 6%; transform-box: view-box; animation: kb-art-swing var(--kb-art-period, 2s) ease-in-out infinite alternate; }
@keyframes kb-art-swing { from { transform: rotate(var(--kb-art-amplitude, 18deg)); } to { transform: rotate(calc(-1 * var(--kb-art-amplitude, 18deg))); } }

.kb-art-glow { filter: drop-shadow(0 0 3px var(--kb-teal, #2ee6d6)) drop-shadow(0 0 10px color-mix(in srgb, var(--kb-teal, #2ee6d6) 45%, transparent)); }
.kb-art-glow-magenta { filter: drop-shadow(0 0 3px var(--kb-magenta, #ff4fd8)) drop-shadow(0 0 9px color-mix(in srgb, var(--kb-magenta, #ff4fd8) 45%, transparent)); }

.kb-tick { position: relative; }
.kb-tick-bob { animation: kb-tick-bob 3.2s ease-in-out infinite; transform-box: view-box; }
@keyframes kb-tick-bob { 0%, 100% { transform: translateY(0); } 50% { transform: translateY(-3px); } }
.kb-tick-blink { transform-box: fill-box; transform-origin: center; animation: kb-tick-blink 5.5s infinite; }
@keyframes kb-tick-blink { 0%, 95%, 100% { transform: scaleY(1); } 97% { transform: scaleY(0.1); } }
.kb-tick-wave { transform-box: fill-box; transform-origin: 10% 90%; animation: kb-tick-wave 1.1s ease-in-out infinite alternate; }
@keyframes kb-tick-wave { from { transform: rotate(-8deg); } to { transform: rotate(14deg); } }

.kb-sparkles { position: absolute; inset: 0; pointer-events: none; z-index: 2; }
.kb-sparkle { position: absolute; width: 18%; aspect-ratio: 1; translate: -50% -50%; opacity: 0;
  animation: kb-sparkle var(--kb-sparkle-duration, 1000ms) ease-out forwards; }
.kb-sparkle svg { width: 100%; height: 100%; display: block; }
@keyframes kb-sparkle { 0% { opacity: 0; transform: scale(0.2) rotate(0deg); } 30% { opacity: 1; transform: scale(1.1) rotate(45deg); }
  70% { opacity: 0.9; transform: scale(0.9) rotate(90deg); } 100% { opacity: 0; transform: scale(0.3) rotate(135deg); } }

.kb-ornament { position: relative; padding: var(--kb-ornament-pad, 28px); border: 1px solid color-mix(in srgb, var(--kb-gold, #f5c542) 45%, transparent);
  border-radius: 4px; background: linear-gradient(160deg, color-mix(in srgb, var(--kb-surface, #151936) 92%, transparent), color-mix(in srgb, var(--kb-bg, #0b0d1a) 88%, transparent));
  box-shadow: inset 0 0 0 4px color-mix(in srgb, var(--kb-bg, #0b0d1a) 80%, transparent), inset 0 0 0 5px color-mix(in srgb, var(--kb-gold, #f5c542) 22%, transparent), 0 0 28px color-mix(in srgb, var(--kb-violet, #8b5cf6) 12%, transparent); }
.kb-ornament-corner { position: absolute; width: 46px; height: 46px; pointer-events: none; }
.kb-ornament-corner svg { width: 100%; height: 100%; display: block; }
.kb-ornament-corner.tl { top: -7px; left: -7px; }
.kb-ornament-corner.tr { top: -7px; right: -7px; transform: scaleX(-1); }
.kb-ornament-corner.bl { bottom: -7px; left: -7px; transform: scaleY(-1); }
.kb-ornament-corner.br { bottom: -7px; right: -7px; transform: scale(-1, -1); }
.kb-ornament-title { position: absolute; top: 0; left: 50%; translate: -50% -50%; padding: 2px 18px; white-space: nowrap;
  background: var(--kb-bg, #0b0d1a); color: var(--kb-gold, #f5c542); font: 600 0.72rem/1.6 var(--kb-font-display, inherit);
  letter-spacing: 0.32em; text-transform: uppercase; border: 1px solid color-mix(in srgb, var(--kb-gold, #f5c542) 55%, transparent); }

.kb-clock { position: relative; display: inline-block; }
.kb-clock-ring { transition: stroke-dashoffset 400ms ease; }
.kb-clock-second { transition: transform 200ms cubic-bezier(.4,2.2,.6,1); transform-origin: 100px 100px; }

.kb-widget { --kb-widget-size: 150px; position: relative; display: inline-flex; flex-direction: column; align-items: center; gap: 10px; }
.kb-widget-housing { position: relative; width: var(--kb-widget-size); height: calc(var(--kb-widget-size) * 1.18); perspective: 700px;
  border-radius: 50% 50% 8px 8px / 32% 32% 8px 8px; padding: 10px;
  background: radial-gradient(circle at 50% 30%, #2a2346, var(--kb-surface, #151936) 70%);
  border: 2px solid var(--kb-gold, #f5c542); box-shadow: 0 0 0 4px var(--kb-bg, #0b0d1a), 0 0 0 5px color-mix(in srgb, var(--kb-teal, #2ee6d6) 60%, transparent), 0 0 24px color-mix(in srgb, var(--kb-teal, #2ee6d6) 30%, transparent); }
.kb-widget-inside { position: absolute; inset: 10px; display: grid; place-items: center; border-radius: inherit; overflow: hidden;
  background: radial-gradient(circle at 50% 40%, color-mix(in srgb, var(--kb-violet, #8b5cf6) 28%, transparent), transparent 70%); }
.kb-widget-inside img, .kb-widget-inside .kb-art { width: 82%; height: auto; }
.kb-widget-inside .kb-art svg { width: 100%; height: auto; }
.kb-widget-emoji { font-size: calc(var(--kb-widget-size) * 0.5); line-height: 1; }
.kb-widget-door { position: absolute; inset: 10px; border-radius: 50% 50% 6px 6px / 32% 32% 6px 6px; transform-origin: left center;
  transition: transform 900ms cubic-bezier(.6,.05,.3,1); backface-visibility: hidden; display: grid; place-items: center;
  background: repeating-linear-gradient(90deg, #3a2c12 0 6px, #4a3816 6px 12px), #3a2c12; border: 2px solid var(--kb-gold, #f5c542); }
.kb-widget-door::after { content: ''; position: absolute; right: 12%; top: 50%; width: 8px; height: 8px; border-radius: 50%; background: var(--kb-gold, #f5c542); box-shadow: 0 0 6px var(--kb-gold, #f5c542); }
.kb-widget[data-open='true'] .kb-widget-door { transform: rotateY(-112deg); }
.kb-widget-bubble { position: relative; padding: 6px 14px; border-radius: 14px; font: 600 0.85rem/1.3 var(--kb-font, inherit);
  color: var(--kb-bg, #0b0d1a); background: var(--kb-teal, #2ee6d6); box-shadow: 0 0 16px color-mix(in srgb, var(--kb-teal, #2ee6d6) 55%, transparent);
  opacity: 0; translate: 0 6px; transition: opacity 300ms 600ms, translate 300ms 600ms; }
.kb-widget-bubble::before { content: ''; position: absolute; left: 50%; top: -6px; translate: -50% 0; border: 6px solid transparent; border-top: 0; border-bottom-color: var(--kb-teal, #2ee6d6); }
.kb-widget[data-open='true'] .kb-widget-bubble { opacity: 1; translate: 0 0; }
.kb-widget-toggle { all: unset; position: absolute; inset: 0; cursor: pointer; border-radius: inherit; }
.kb-widget-toggle:focus-visible { outline: 2px solid var(--kb-magenta, #ff4fd8); outline-offset: 6px; }

@media (prefers-reduced-motion: reduce) {
  .kb-art-spin, .kb-art-spin-rev, .kb-art-pendulum-arm, .kb-tick-bob, .kb-tick-blink, .kb-tick-wave { animation: none; }
  .kb-sparkle { animation-duration: 1ms; animation-delay: 0s !important; opacity: 1; animation-name: kb-sparkle-still; }
  @keyframes kb-sparkle-still { from, to { opacity: 1; } }
  .kb-clock-ring, .kb-clock-second, .kb-widget-door, .kb-widget-bubble { transition: none; }
}
`;

/** Hoisted, de-duplicated stylesheet for the art (React 19 style hoisting). */
export function ArtStyles() {
  return (
    <style href="kaboodle-art" precedence="kaboodle-art">
      {ART_CSS}
    </style>
  );
}
