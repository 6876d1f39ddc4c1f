// "The latest request wins", for a page's reads of one thing whose answers may come back out of order (a slow
// server or network, a read asked again): only the answer to the read asked last is drawn, and an earlier answer
// arriving after it is dropped — whatever it carries, even the same seq (a leave then a return leave the log as it
// was). A read that fails is asked again, a little later each time, unless a later read was asked meanwhile.

// A line of reads: ask(read, draw, options) starts read() and hands its answer to draw(answer) unless ask was
// called again on this line since (the later read draws). retries: how many times a failed read is asked again
// (after 1, 2, 4, ... s from firstDelay); onError(exc, last) for each failure (last: none will follow). Resolves
// with what draw returned, or undefined when the answer was dropped or the read failed.
export function latest() {
  let asked = 0;
  return function ask(read, draw, { retries = 0, firstDelay = 1000, onError = () => {} } = {}) {
    const attempt = async (n) => {
      const mine = ++asked;
      let answer;
      try {
        answer = await read();
      } catch (exc) {
        if (mine !== asked) return undefined;            // a later read is on its way: its failure is its own
        onError(exc, n >= retries);
        if (n < retries) setTimeout(() => { if (mine === asked) attempt(n + 1); }, firstDelay * 2 ** n);
        return undefined;
      }
      return mine === asked ? draw(answer) : undefined;
    };
    return attempt(0);
  };
}
