package vulkan

import "testing"

func TestSmoke(t *testing.T) {
	d, err := Open(Config{Validation: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", d.Info())
	t.Logf("%+v", d.MemoryTypes())
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	for _, m := range d.Messages() {
		t.Logf("%s", m)
	}
}
