// Cards as people read them: "10H" is the ten of hearts, shown 10♥ in red, said "10 of hearts" to a screen reader.

export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SYMBOLS = { C: "\u2663", D: "\u2666", H: "\u2665", S: "\u2660" };
const RANK_NAMES = { J: "Jack", Q: "Queen", K: "King", A: "Ace", T: "10" };

export function parseCard(text) {
  const m = /^(10|[2-9TJQKA])([CDHS])$/.exec(text || "");
  return m ? { rank: m[1] === "T" ? "10" : m[1], suit: m[2] } : null;
}

export function isRed(text) {
  const c = parseCard(text);
  return !!c && (c.suit === "H" || c.suit === "D");
}

// "the 10 of hearts"; with a trump word ("drumpf"), the trump suit is named as the table names it.
export function cardName(text, trump = null, trumpWord = null) {
  const c = parseCard(text);
  if (!c) return String(text);
  const suit = trump && trumpWord && c.suit === trump ? `${trumpWord}s (${SUIT_NAMES[c.suit]})` : SUIT_NAMES[c.suit];
  return `${RANK_NAMES[c.rank] || c.rank} of ${suit}`;
}

export function suitName(letter) {
  return SUIT_NAMES[letter] || String(letter);
}

// A card's face: rank and suit symbol, coloured by suit; `aria-label` carries the words.
export function cardFace(doc, text, { trump = null, trumpWord = null, small = false } = {}) {
  const c = parseCard(text);
  const el = doc.createElement("span");
  el.className = "card-face" + (small ? " small" : "") + (c && isRed(text) ? " red" : " black");
  if (!c) {
    el.textContent = String(text);
    return el;
  }
  const rank = doc.createElement("span");
  rank.className = "rank";
  rank.textContent = c.rank;
  const suit = doc.createElement("span");
  suit.className = "suit";
  suit.textContent = SUIT_SYMBOLS[c.suit];
  suit.setAttribute("aria-hidden", "true");
  el.append(rank, suit);
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", cardName(text, trump, trumpWord));
  el.title = cardName(text, trump, trumpWord);
  return el;
}

export function cardsText(cards) {
  return cards.map((c) => {
    const p = parseCard(c);
    return p ? p.rank + SUIT_SYMBOLS[p.suit] : c;
  }).join(" ");
}
