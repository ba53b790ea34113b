package main

import (
	"github.com/twindex/twindex/index"
	"github.com/twindex/twindex/remote"
)

// rerankFlags configure a cross-encoder rerank server for the commands
// that search: it reorders the first hits of the first page. Unset,
// nothing is reranked.
type rerankFlags struct {
	url, model, keyEnv string
}

func (fs *flagSet) rerankFlags(e *env) *rerankFlags {
	f := &rerankFlags{}
	fs.StringVar(&f.url, "rerank-url", e.getenv("TWINDEX_RERANK_URL"), "rerank server `URL` (POST {model, query, documents} -> {results: [{index, relevance_score}]}; /v1/rerank unless the URL has a path; env TWINDEX_RERANK_URL); unset: no reranking")
	fs.StringVar(&f.model, "rerank-model", e.getenv("TWINDEX_RERANK_MODEL"), "rerank `model`, e.g. bge-reranker-v2-m3 (env TWINDEX_RERANK_MODEL)")
	fs.StringVar(&f.keyEnv, "rerank-key-env", "TWINDEX_RERANK_KEY", "the environment `variable` holding the API key, if any")
	return f
}

// args are the flags that give another twindex process this reranker.
func (f *rerankFlags) args() []string {
	if f.url == "" {
		return nil
	}
	return []string{"--rerank-url", f.url, "--rerank-model", f.model, "--rerank-key-env", f.keyEnv}
}

// options sets opts.Reranker from the flags.
func (f *rerankFlags) options(e *env, opts *index.Options) error {
	if f.url == "" {
		if f.model != "" {
			return usageErr("", "--rerank-model needs --rerank-url")
		}
		return nil
	}
	rr, err := remote.NewReranker(f.url, &remote.RerankerOptions{Model: f.model, APIKey: e.getenv(f.keyEnv)})
	if err != nil {
		return usageErr("", "reranker: %w", err)
	}
	opts.Reranker = rr
	return nil
}
