// The loading screen's chime (mascot reveal) and sigh (ready): two short, quiet synthesised tones.
// Browsers may refuse audio without a user gesture; then the screen simply stays silent.
let context: AudioContext | null = null;

function tone(ctx: AudioContext, freq: number, start: number, length: number, glideTo?: number) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = 'sine';
  osc.frequency.setValueAtTime(freq, ctx.currentTime + start);
  if (glideTo) osc.frequency.exponentialRampToValueAtTime(glideTo, ctx.currentTime + start + length);
  gain.gain.setValueAtTime(0.0001, ctx.currentTime + start);
  gain.gain.exponentialRampToValueAtTime(0.035, ctx.currentTime + start + 0.02);
  gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.05);
}

export function playEffect(effect: 'chime' | 'sigh'): void {
  try {
    if (typeof AudioContext === 'undefined') return;
    context ??= new AudioContext();
    if (context.state === 'suspended') return; // no user gesture yet: stay quiet rather than queue sound
    if (effect === 'chime') {
      tone(context, 1318.5, 0, 0.6);
      tone(context, 1975.5, 0.12, 0.8);
    } else {
      tone(context, 440, 0, 0.7, 330);
    }
  } catch {
    // Sound is decoration; never let it break loading.
  }
}
