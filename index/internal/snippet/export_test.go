package snippet

// Render is render, and RenderWhole render without the head's shortcut;
// HeadDecides reports whether the head decides a field's snippet.
func (q *Query) Render(f Field, prefer, floor int) (string, int) { return q.render(f, prefer, floor) }

func (q *Query) RenderWhole(f Field, prefer, floor int) (string, int) {
	snip, at, _ := q.renderIn(f, prefer, floor, len(f.Folded))
	return snip, at
}

func (q *Query) HeadDecides(f Field, floor int) bool {
	_, _, ok := q.renderIn(f, -1, floor, headScan)
	return ok
}
