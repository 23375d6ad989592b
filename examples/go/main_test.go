// Package example shows the two ways to run spritzer for Go tests with the spritzertest helper (clients/go of
// spritzer): one server for the whole package (TestMain → spritzertest.Main, which exports SPRITES_BASE_URL and
// SPRITES_TOKEN), or one per test (spritzertest.Start(t), stopped by t.Cleanup). Both start
// `node …/bin/spritzer.mjs` in its own process group and stop the whole group, also on a failure or Ctrl-C.
// See docs/testing.md.
package example

import (
	"context"
	"os"
	"testing"

	sprites "github.com/superfly/sprites-go"
	"spritzer/spritzertest"
)

func TestMain(m *testing.M) { spritzertest.Main(m) }

func TestExecWithTheSharedServer(t *testing.T) {
	client := sprites.New(os.Getenv("SPRITES_TOKEN"), sprites.WithBaseURL(os.Getenv("SPRITES_BASE_URL")))
	t.Cleanup(func() { _ = spritzertest.Shared().Reset() }) // the next test starts empty
	ctx := context.Background()
	sprite, err := client.CreateSprite(ctx, "go-demo", nil)
	if err != nil {
		t.Fatal(err)
	}
	out, err := sprite.CommandContext(ctx, "sh", "-c", "echo hi > /tmp/out; cat /tmp/out").Output()
	if err != nil || string(out) != "hi\n" {
		t.Fatalf("exec: %q %v", out, err)
	}
}

func TestAServerOfItsOwn(t *testing.T) {
	s := spritzertest.Start(t)
	client := sprites.New(s.Token, sprites.WithBaseURL(s.BaseURL), sprites.WithDisableControl())
	list, err := client.ListSprites(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sprites) != 0 {
		t.Fatalf("a new server has no sprites, got %d", len(list.Sprites))
	}
}
