package compact

import "testing"

// A column across several blocks reads back what was pushed and set, and
// truncating it, at a block's end or inside one, keeps what is before and
// takes pushes after.
func TestColumn(t *testing.T) {
	var c column
	const n = 3*columnBlock + 123
	for i := range n {
		c.push(uint32(i * 7))
	}
	if c.n != n || len(c.blocks) != 4 {
		t.Fatalf("%d numbers in %d blocks", c.n, len(c.blocks))
	}
	for _, p := range []uint32{0, columnBlock - 1, columnBlock, 2*columnBlock + 5, n - 1} {
		if got := c.at(p); got != p*7 {
			t.Fatalf("at(%d) = %d, want %d", p, got, p*7)
		}
	}
	c.set(columnBlock+1, 42)
	if c.at(columnBlock+1) != 42 {
		t.Fatal("set")
	}
	for _, keep := range []int{2*columnBlock + 10, 2 * columnBlock, 5, 0} {
		c.truncate(keep)
		sum := 0
		for _, b := range c.blocks {
			sum += len(b)
		}
		if c.n != keep || sum != keep {
			t.Fatalf("truncate(%d): n %d, blocks hold %d", keep, c.n, sum)
		}
		c.push(99)
		if c.at(uint32(keep)) != 99 || c.n != keep+1 {
			t.Fatalf("push after truncate(%d)", keep)
		}
		if keep > 1 && c.at(1) != 7 {
			t.Fatalf("truncate(%d) lost the numbers before", keep)
		}
		c.truncate(keep)
	}
}
