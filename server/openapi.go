package server

import (
	"github.com/google/jsonschema-go/jsonschema"
)

// openAPI is the OpenAPI 3.1 document of the HTTP API, built from the
// tools' own input and output schemas: one contract for MCP and HTTP.
func (s *Service) openAPI() map[string]any {
	errSchema, err := jsonschema.For[errorBody](nil)
	if err != nil {
		panic(err)
	}
	errors := func(codes ...string) map[string]any {
		r := map[string]any{}
		for _, c := range codes {
			r[c] = map[string]any{"$ref": "#/components/responses/Error"}
		}
		return r
	}
	body := func(schema any) map[string]any {
		return map[string]any{"required": true, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
	}
	ok := func(desc string, schema any) map[string]any {
		return map[string]any{"description": desc, "content": map[string]any{"application/json": map[string]any{"schema": schema}}}
	}
	op := func(tool, summary string, withBody bool, codes ...string) map[string]any {
		t := s.tools[tool]
		o := map[string]any{"operationId": tool, "summary": summary, "description": t.def.Description,
			"responses": merge(map[string]any{"200": ok("the tool's structured result", t.out)}, errors(codes...))}
		if withBody {
			o["requestBody"] = body(t.in)
		}
		return o
	}
	idParam := map[string]any{"name": "id", "in": "path", "required": true, "schema": map[string]any{"type": "string"},
		"description": "the document ID (URL-escaped; slashes may stay as they are)"}
	getOne := op("get", "Read one document", false, "401", "404", "503")
	getOne["operationId"] = "getDocument"
	getOne["parameters"] = []any{idParam,
		map[string]any{"name": "maxBytes", "in": "query", "schema": s.tools["get"].in.Properties["maxBytes"]},
		map[string]any{"name": "offset", "in": "query", "schema": s.tools["get"].in.Properties["offset"]}}
	getOne["responses"].(map[string]any)["200"] = ok("the document", s.tools["get"].out.Properties["documents"].Items)
	add := op("upsert", "Add new documents, all or none: 409 if one exists", true, "400", "401", "409", "413", "503")
	add["operationId"] = "addDocuments"
	delOne := op("remove", "Remove one document", false, "401", "404", "503")
	delOne["operationId"] = "removeDocument"
	delOne["parameters"] = []any{idParam}
	back := op("backlinks", "Documents linking to a document", false, "400", "401", "503")
	back["parameters"] = []any{idParam, map[string]any{"name": "type", "in": "query", "description": "only links of these types (repeat the parameter)",
		"schema": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}, "style": "form", "explode": true}}
	return map[string]any{
		"openapi": "3.1.0",
		"info": map[string]any{"title": "twindex", "version": s.version,
			"description": "Full-text and substring search over one index. Each call is an MCP tool of the same name, with the same arguments and results."},
		"security": []any{map[string]any{"bearer": []any{}}},
		"paths": map[string]any{
			"/v1/search":         map[string]any{"post": op("search", "Search the index", true, "400", "401", "413", "503")},
			"/v1/docs":           map[string]any{"put": op("upsert", "Add or replace documents, all or none", true, "400", "401", "413", "503"), "post": add},
			"/v1/docs/get":       map[string]any{"post": op("get", "Read documents", true, "400", "401", "503")},
			"/v1/docs/delete":    map[string]any{"post": op("remove", "Remove documents", true, "400", "401", "503")},
			"/v1/docs/{id}":      map[string]any{"get": getOne, "delete": delOne},
			"/v1/backlinks/{id}": map[string]any{"get": back},
			"/v1/stats":          map[string]any{"get": op("stats", "Index statistics", false, "401", "503")},
			"/v1/index":          map[string]any{"post": op("index_path", "Index a folder or file under the root", true, "400", "401", "503")},
		},
		"components": map[string]any{
			"securitySchemes": map[string]any{"bearer": map[string]any{"type": "http", "scheme": "bearer",
				"description": "the server's TWINDEX_TOKEN; required when it has one"}},
			"responses": map[string]any{"Error": ok("an error: code says what kind, message what to do", errSchema)},
		},
	}
}

func merge(a, b map[string]any) map[string]any {
	for k, v := range b {
		a[k] = v
	}
	return a
}
