package remote

import "testing"

// FuzzDecodeEmbed feeds server bytes to both embedding decoders: anything
// must give vectors that pass checkEmbeddings or an error, never a panic.
func FuzzDecodeEmbed(f *testing.F) {
	for _, seed := range []string{
		`{"embeddings":[[1,2],[3,4]]}`,
		`{"embeddings":[[1,2],[3]]}`,
		`{"embeddings":[[],[]]}`,
		`{"embeddings":null}`,
		`{"data":[{"index":1,"embedding":[1,2]},{"index":0,"embedding":[3,4]}]}`,
		`{"data":[{"index":0,"embedding":[1]},{"index":0,"embedding":[1]}]}`,
		`{"data":[{"index":-1,"embedding":[1]},{"index":9,"embedding":[1]}]}`,
		`{"data":[{"index":0,"embedding":[1e39]}]}`,
		`[1,2]`,
		``,
	} {
		f.Add([]byte(seed), uint8(2))
	}
	f.Fuzz(func(t *testing.T, body []byte, n uint8) {
		for name, decode := range map[string]func([]byte, int) ([][]float32, error){
			"ollama": decodeOllamaEmbed,
			"openai": decodeOpenAIEmbed,
		} {
			vecs, err := decode(body, int(n))
			if err != nil {
				continue
			}
			if err := checkEmbeddings(vecs, int(n)); err != nil {
				t.Errorf("%s accepted %q: %v", name, body, err)
			}
		}
	})
}
