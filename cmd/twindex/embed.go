package main

import (
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/remote"
)

// embedFlags configure an embedding server for the commands that write
// or search: documents written without a vector are embedded, and vector
// and hybrid searches embed the query. Unset, nothing is embedded.
type embedFlags struct {
	url, model, api, keyEnv string
}

func (fs *flagSet) embedFlags(e *env) *embedFlags {
	f := &embedFlags{}
	fs.StringVar(&f.url, "embed-url", e.getenv("TWINDEX_EMBED_URL"), "embedding server `URL`, e.g. http://localhost:11434 (env TWINDEX_EMBED_URL); unset: no embedding")
	fs.StringVar(&f.model, "embed-model", e.getenv("TWINDEX_EMBED_MODEL"), "embedding `model`, e.g. nomic-embed-text (env TWINDEX_EMBED_MODEL)")
	fs.StringVar(&f.api, "embed-api", orDefault(e.getenv("TWINDEX_EMBED_API"), string(remote.Ollama)), "ollama (/api/embed) or openai (/v1/embeddings)")
	fs.oneOf("embed-api", "ollama", "openai")
	fs.StringVar(&f.keyEnv, "embed-key-env", "TWINDEX_EMBED_KEY", "the environment `variable` holding the API key, if any")
	return f
}

// args are the flags that give another twindex process this embedder.
func (f *embedFlags) args() []string {
	if f.url == "" {
		return nil
	}
	return []string{"--embed-url", f.url, "--embed-model", f.model, "--embed-api", f.api, "--embed-key-env", f.keyEnv}
}

// options sets opts.Embedder from the flags.
func (f *embedFlags) options(e *env, opts *index.Options) error {
	if f.url == "" {
		if f.model != "" {
			return usageErr("", "--embed-model needs --embed-url")
		}
		return nil
	}
	emb, err := remote.NewEmbedder(f.url, f.model, &remote.EmbedderOptions{API: remote.API(f.api), APIKey: e.getenv(f.keyEnv)})
	if err != nil {
		return usageErr("", "embedder: %w", err)
	}
	opts.Embedder = emb
	return nil
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
