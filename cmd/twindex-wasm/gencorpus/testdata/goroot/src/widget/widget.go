// Package widget makes widgets.
package widget

// Widget is a thing.
type Widget struct{ n int }

// NewWidget returns a widget of size n.
func NewWidget(n int) *Widget { return &Widget{n} }

// Size reports the widget's size.
func (w *Widget) Size() int { return w.n }
