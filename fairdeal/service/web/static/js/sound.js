// Little sounds made by the browser itself (no files to fetch): a chime when it is your turn, a tick when a
// card is played. M turns them off and on; the choice is remembered.

const KEY = "fairdeal.sound";
let ctx = null;

export function soundOn() {
  return localStorage.getItem(KEY) !== "off";
}

export function setSound(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}

function tone(freq, start, length, volume = 0.08) {
  if (!soundOn()) return;
  try {
    ctx = ctx || new AudioContext();
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(volume, ctx.currentTime + start);
    gain.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
    osc.connect(gain).connect(ctx.destination);
    osc.start(ctx.currentTime + start);
    osc.stop(ctx.currentTime + start + length);
  } catch {
    /* no audio here: the game goes on in silence */
  }
}

export function yourTurn() {
  tone(660, 0, 0.18);
  tone(880, 0.16, 0.22);
}

export function cardPlayed() {
  tone(320, 0, 0.06, 0.04);
}

export function warning() {
  tone(440, 0, 0.12);
  tone(330, 0.14, 0.2);
}
