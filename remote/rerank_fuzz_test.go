package remote

import "testing"

// FuzzDecodeRerank feeds server bytes to the rerank decoder: anything must
// give one score per document or an error, never a panic.
func FuzzDecodeRerank(f *testing.F) {
	for _, seed := range []string{
		`{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`,
		`{"results":[{"index":0,"relevance_score":0.9},{"index":0,"relevance_score":0.1}]}`,
		`{"results":[{"index":5,"relevance_score":1}]}`,
		`{"results":[{"relevance_score":1},{"index":1}]}`,
		`{"results":null}`,
		`{"results":[{"index":0,"relevance_score":1e999}]}`,
		`nope`,
	} {
		f.Add([]byte(seed), uint8(2))
	}
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		scores, err := decodeRerank(body, int(n))
		if err == nil && len(scores) != int(n) {
			t.Errorf("accepted %q with %d scores for %d documents", body, len(scores), n)
		}
	})
}
