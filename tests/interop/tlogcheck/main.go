// tlogcheck checks a fairdeal service's transparency log with Go's golang.org/x/mod/sumdb/note and
// golang.org/x/mod/sumdb/tlog, code nobody on the project wrote: the checkpoint's signature (note.Open with the
// log's verifier key), the tiles (tlog.TileHashReader checks every tile it reads against the checkpoint's root),
// the entry bundles (each entry's tlog.RecordHash against the level-0 tiles), the service's inclusion and
// consistency proofs (tlog.CheckRecord, tlog.CheckTree), and, given a witness's key, its cosignature/v1.
//
// Usage: tlogcheck -url http://host:port -vkey VKEY [-witness VKEY] [-old-size N -old-root BASE64]
//
//	tlogcheck -note FILE -vkey VKEY [-witness VKEY]     (a checkpoint note from a file, e.g. docs' vectors)
//
// Prints one line per finding and exits 1 on the first failure; prints "OK ..." and exits 0 otherwise.
package main

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

var base string

func fail(format string, args ...interface{}) {
	fmt.Printf("FAIL "+format+"\n", args...)
	os.Exit(1)
}

func get(path string) []byte {
	resp, err := http.Get(base + path)
	if err != nil {
		fail("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != 200 {
		fail("GET %s: status %d %s", path, resp.StatusCode, body)
	}
	return body
}

// tiles maps Go's tile paths (tile/8/L/N, tile/8/data/N) onto C2SP tlog-tiles' (tile/L/N, tile/entries/N), and
// keeps the tiles tlog has verified (SaveTiles) so that each is fetched once.
type tiles struct{ saved map[string][]byte }

func (tiles) Height() int { return 8 }

func c2spPath(t tlog.Tile) string {
	p := t.Path()
	if !strings.HasPrefix(p, "tile/8/") {
		fail("unexpected Go tile path %s", p)
	}
	p = "tile/" + strings.TrimPrefix(p, "tile/8/")
	return strings.Replace(p, "tile/data/", "tile/entries/", 1)
}

func (r tiles) ReadTiles(ts []tlog.Tile) ([][]byte, error) {
	out := make([][]byte, len(ts))
	for i, t := range ts {
		if data, ok := r.saved[c2spPath(t)]; ok {
			out[i] = data
		} else {
			out[i] = get("/log/" + c2spPath(t))
		}
	}
	return out, nil
}

func (r tiles) SaveTiles(ts []tlog.Tile, data [][]byte) {
	for i, t := range ts {
		r.saved[c2spPath(t)] = data[i]
	}
}

// cosigVerifier verifies a tlog-cosignature cosignature/v1 (type 0x04): x/mod's note has no such type.
type cosigVerifier struct {
	name string
	hash uint32
	key  ed25519.PublicKey
}

func (v cosigVerifier) Name() string    { return v.name }
func (v cosigVerifier) KeyHash() uint32 { return v.hash }
func (v cosigVerifier) Verify(msg, sig []byte) bool {
	if len(sig) != 8+64 {
		return false
	}
	t := binary.BigEndian.Uint64(sig[:8])
	m := append([]byte(fmt.Sprintf("cosignature/v1\ntime %d\n", t)), msg...)
	return ed25519.Verify(v.key, m, sig[8:])
}

func newCosigVerifier(vkey string) cosigVerifier {
	parts := strings.SplitN(vkey, "+", 3)
	if len(parts) != 3 {
		fail("witness vkey %q", vkey)
	}
	raw, err := base64.StdEncoding.DecodeString(parts[2])
	if err != nil || len(raw) != 33 || raw[0] != 0x04 {
		fail("witness vkey %q is not a cosignature/v1 key", vkey)
	}
	h := sha256.Sum256(append([]byte(parts[0]+"\n"), raw...))
	if hex.EncodeToString(h[:4]) != parts[1] {
		fail("witness vkey %q: its key id is not its name's and key's", vkey)
	}
	return cosigVerifier{parts[0], binary.BigEndian.Uint32(h[:4]), ed25519.PublicKey(raw[1:])}
}

func hashes(list []string) []tlog.Hash {
	out := make([]tlog.Hash, len(list))
	for i, s := range list {
		b, err := hex.DecodeString(s)
		if err != nil || len(b) != 32 {
			fail("bad hash %q", s)
		}
		copy(out[i][:], b)
	}
	return out
}

func main() {
	flag.StringVar(&base, "url", "", "the service's base URL")
	vkey := flag.String("vkey", "", "the log's verifier key")
	witness := flag.String("witness", "", "a witness's verifier key: its cosignature is required")
	oldSize := flag.Int64("old-size", -1, "an earlier checkpoint's size, to check consistency from")
	oldRoot := flag.String("old-root", "", "that checkpoint's root hash (base64)")
	noteFile := flag.String("note", "", "check this file's note instead of a service's checkpoint")
	flag.Parse()

	logV, err := note.NewVerifier(*vkey)
	if err != nil {
		fail("log vkey: %v", err)
	}
	known := []note.Verifier{logV}
	if *witness != "" {
		known = append(known, newCosigVerifier(*witness))
	}
	var msg []byte
	if *noteFile != "" {
		msg, err = os.ReadFile(*noteFile)
		if err != nil {
			fail("%v", err)
		}
	} else {
		msg = get("/log/checkpoint")
	}
	n, err := note.Open(msg, note.VerifierList(known...))
	if err != nil {
		fail("checkpoint does not verify: %v", err)
	}
	signedBy := map[string]bool{}
	for _, s := range n.Sigs {
		signedBy[s.Name+"/"+strconv.FormatUint(uint64(s.Hash), 16)] = true
	}
	if !signedBy[logV.Name()+"/"+strconv.FormatUint(uint64(logV.KeyHash()), 16)] {
		fail("checkpoint not signed by the log's key")
	}
	cosigned := 0
	if *witness != "" {
		w := known[1]
		if !signedBy[w.Name()+"/"+strconv.FormatUint(uint64(w.KeyHash()), 16)] {
			fail("checkpoint carries no valid cosignature by %s", w.Name())
		}
		cosigned = 1
	}
	lines := strings.Split(n.Text, "\n")
	if len(lines) != 4 || lines[3] != "" {
		fail("checkpoint text is not three lines: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size %q", lines[1])
	}
	rootBytes, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(rootBytes) != 32 {
		fail("checkpoint root %q", lines[2])
	}
	var tree tlog.Tree
	tree.N = size
	copy(tree.Hash[:], rootBytes)
	if *noteFile != "" {
		fmt.Printf("OK origin=%s size=%d root=%x cosignatures=%d\n", lines[0], size, rootBytes, cosigned)
		return
	}

	hr := tlog.TileHashReader(tree, tiles{map[string][]byte{}})
	th, err := tlog.TreeHash(tree.N, hr)
	if err != nil || th != tree.Hash {
		fail("tree hash from tiles: %v %v", th, err)
	}
	// every entry of the entry bundles against the level-0 tiles (which the reader proved under the root)
	var index int64
	for bundle := int64(0); index < size; bundle++ {
		w := size - bundle*256
		if w > 256 {
			w = 256
		}
		data := get("/log/" + c2spPath(tlog.Tile{H: 8, L: -1, N: bundle, W: int(w)}))
		for len(data) > 0 {
			if len(data) < 2 {
				fail("entry bundle %d: a truncated length", bundle)
			}
			l := int(binary.BigEndian.Uint16(data[:2]))
			if len(data) < 2+l {
				fail("entry bundle %d: a truncated entry", bundle)
			}
			entry := data[2 : 2+l]
			data = data[2+l:]
			var leaf map[string]interface{}
			if err := json.Unmarshal(entry, &leaf); err != nil {
				fail("entry %d is not JSON: %v", index, err)
			}
			got, err := hr.ReadHashes([]int64{tlog.StoredHashIndex(0, index)})
			if err != nil || got[0] != tlog.RecordHash(entry) {
				fail("entry %d does not hash to its level-0 tile hash (%v)", index, err)
			}
			if index%29 != 0 && index != size-1 && index != 255 && index != 256 {
				index++
				continue // the proofs of a sample of the entries (the tiles' edges among them)
			}
			// an inclusion proof computed by Go from the tiles, and the service's own
			p, err := tlog.ProveRecord(size, index, hr)
			if err != nil || tlog.CheckRecord(p, size, tree.Hash, index, tlog.RecordHash(entry)) != nil {
				fail("Go's inclusion proof of entry %d from the tiles: %v", index, err)
			}
			var served struct{ Proof []string }
			if err := json.Unmarshal(get(fmt.Sprintf("/log/leaves/%d/proof?size=%d", index, size)), &served); err != nil {
				fail("proof of %d: %v", index, err)
			}
			if err := tlog.CheckRecord(hashes(served.Proof), size, tree.Hash, index, tlog.RecordHash(entry)); err != nil {
				fail("the service's inclusion proof of entry %d: %v", index, err)
			}
			index++
		}
		if index != bundle*256+w {
			fail("entry bundle %d holds %d entries, not %d", bundle, index-bundle*256, w)
		}
	}
	consistent := ""
	if *oldSize >= 0 {
		ob, err := base64.StdEncoding.DecodeString(*oldRoot)
		if err != nil || len(ob) != 32 {
			fail("old root %q", *oldRoot)
		}
		var old tlog.Hash
		copy(old[:], ob)
		var served struct{ Proof []string }
		path := fmt.Sprintf("/log/consistency?first=%d&second=%d", *oldSize, size)
		if err := json.Unmarshal(get(path), &served); err != nil {
			fail("consistency: %v", err)
		}
		if err := tlog.CheckTree(hashes(served.Proof), size, tree.Hash, *oldSize, old); err != nil {
			fail("the service's consistency proof from %d to %d: %v", *oldSize, size, err)
		}
		p, err := tlog.ProveTree(size, *oldSize, hr)
		if err != nil || tlog.CheckTree(p, size, tree.Hash, *oldSize, old) != nil {
			fail("Go's consistency proof from the tiles, %d to %d: %v", *oldSize, size, err)
		}
		consistent = fmt.Sprintf(" consistent-from=%d", *oldSize)
	}
	fmt.Printf("OK origin=%s size=%d entries=%d cosignatures=%d%s\n", lines[0], size, index, cosigned, consistent)
}
