// sprites-go v0.1.0, unchanged, against spritzer (the engine is $SPRITZER_EXEC), in the SDK's default mode
// (which opens the control socket, /v1/sprites/{name}/control, and multiplexes exec over it) and with
// WithDisableControl() (one WebSocket per exec). The request log (GET /_spritzer/requests) says which was used.
package clients

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	sprites "github.com/superfly/sprites-go"
	"spritzer/spritzertest"
)

type mode struct {
	name string
	opts []sprites.Option
}

var modes = []mode{{"default", nil}, {"disable-control", []sprites.Option{sprites.WithDisableControl()}}}

func TestSDK(t *testing.T) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			s := spritzertest.Start(t)
			client := sprites.New(s.Token, append([]sprites.Option{sprites.WithBaseURL(s.BaseURL)}, m.opts...)...)
			t.Cleanup(func() { _ = client.Close() })
			lifecycle(t, client)
			controlUsed := checkTransport(t, s, "go-sdk")
			if m.name == "default" && !controlUsed {
				t.Fatal("default mode: exec went over one WebSocket each, not /control (the request log above)")
			}
			if m.name == "disable-control" && controlUsed {
				t.Fatal("WithDisableControl(): the SDK must not open /control")
			}
		})
	}
}

// lifecycle is what an app does with a sprite: create, exec, files, checkpoint and restore, services, policy.
func lifecycle(t *testing.T, client *sprites.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sprite, err := client.CreateSprite(ctx, "go-sdk", nil)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if got, err := client.GetSprite(ctx, "go-sdk"); err != nil || got.Name() != "go-sdk" {
		t.Fatalf("get: %v %v", got, err)
	}

	out, err := sprite.CommandContext(ctx, "echo", "hello", "world").Output()
	if err != nil || string(out) != "hello world\n" {
		t.Fatalf("echo: %q %v", out, err)
	}
	cmd := sprite.CommandContext(ctx, "sh", "-c", `echo "$GREETING from $(pwd)"; echo warn >&2; exit 4`)
	cmd.Env = []string{"GREETING=hi"}
	cmd.Dir = "/tmp"
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *sprites.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 4 {
		t.Fatalf("exit code: %v", err)
	}
	if stdout.String() != "hi from /tmp\n" || stderr.String() != "warn\n" {
		t.Fatalf("streams: %q %q", stdout.String(), stderr.String())
	}
	cat := sprite.CommandContext(ctx, "cat")
	cat.Stdin = strings.NewReader("through stdin")
	if out, err := cat.Output(); err != nil || string(out) != "through stdin" {
		t.Fatalf("stdin: %q %v", out, err)
	}

	fsys := sprite.FilesystemAt("/home/sprite")
	if err := fsys.MkdirAll("app/data", 0o755); err != nil {
		t.Fatalf("mkdir: %v", err)
	}
	if err := fsys.WriteFile("app/data/config.json", []byte(`{"debug":true}`), 0o644); err != nil {
		t.Fatalf("write: %v", err)
	}
	if b, err := fsys.ReadFile("app/data/config.json"); err != nil || string(b) != `{"debug":true}` {
		t.Fatalf("read: %q %v", b, err)
	}
	// the SDK's Mkdir writes a .keep file (filesystem.go), so the listing has both
	entries, err := fsys.ReadDir("app/data")
	names := []string{}
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if err != nil || strings.Join(names, ",") != ".keep,config.json" {
		t.Fatalf("readdir: %v %v", names, err)
	}
	if info, err := fsys.Stat("app/data/config.json"); err != nil || info.Size() != 14 {
		t.Fatalf("stat: %v %v", info, err)
	}
	if err := fsys.Rename("app/data/config.json", "app/data/settings.json"); err != nil {
		t.Fatalf("rename: %v", err)
	}
	if err := fsys.RemoveAll("app"); err != nil {
		t.Fatalf("removeall: %v", err)
	}
	if _, err := fsys.Stat("app"); err == nil {
		t.Fatal("app still there after RemoveAll")
	}

	if err := sprite.CommandContext(ctx, "sh", "-c", "echo before > /home/sprite/state").Run(); err != nil {
		t.Fatal(err)
	}
	stream, err := sprite.CreateCheckpointWithComment(ctx, "before the change")
	if err != nil {
		t.Fatalf("checkpoint: %v", err)
	}
	drain(t, stream.Next)
	checkpoints, err := sprite.ListCheckpoints(ctx, "")
	if err != nil || len(checkpoints) == 0 {
		t.Fatalf("list checkpoints: %v %v", checkpoints, err)
	}
	var id string
	for _, c := range checkpoints {
		if c.Comment == "before the change" {
			id = c.ID
		}
	}
	if id == "" {
		t.Fatalf("no checkpoint with the comment in %v", checkpoints)
	}
	if err := sprite.CommandContext(ctx, "sh", "-c", "echo after > /home/sprite/state").Run(); err != nil {
		t.Fatal(err)
	}
	restore, err := sprite.RestoreCheckpoint(ctx, id)
	if err != nil {
		t.Fatalf("restore: %v", err)
	}
	drain(t, restore.Next)
	if out, err := sprite.CommandContext(ctx, "cat", "/home/sprite/state").Output(); err != nil || string(out) != "before\n" {
		t.Fatalf("after restore: %q %v", out, err)
	}

	svc, err := sprite.CreateService(ctx, "ticker", &sprites.ServiceRequest{Cmd: "sh", Args: []string{"-c", "while true; do echo tick; sleep 1; done"}})
	if err != nil {
		t.Fatalf("service: %v", err)
	}
	_ = svc.Close()
	if list, err := sprite.ListServices(ctx); err != nil || len(list) != 1 || list[0].Name != "ticker" {
		t.Fatalf("services: %v %v", list, err)
	}
	if err := sprite.UpdateNetworkPolicy(ctx, &sprites.NetworkPolicy{Rules: []sprites.NetworkPolicyRule{{Domain: "example.com", Action: "allow"}}}); err != nil {
		t.Fatalf("policy: %v", err)
	}
	if p, err := sprite.GetNetworkPolicy(ctx); err != nil || len(p.Rules) != 1 || p.Rules[0].Domain != "example.com" {
		t.Fatalf("policy read back: %v %v", p, err)
	}

	if err := client.DeleteSprite(ctx, "go-sdk"); err != nil {
		t.Fatalf("delete: %v", err)
	}
	if _, err := client.GetSprite(ctx, "go-sdk"); err == nil {
		t.Fatal("a deleted sprite is still there")
	}
}

func drain[T any](t *testing.T, next func() (T, error)) {
	t.Helper()
	for {
		if _, err := next(); err != nil {
			if err == io.EOF {
				return
			}
			t.Fatalf("stream: %v", err)
		}
	}
}

// checkTransport reports whether exec went over the control socket (an upgraded /control and no /exec
// WebSocket), failing on a mix, which no SDK mode produces.
func checkTransport(t *testing.T, s *spritzertest.Server, name string) bool {
	t.Helper()
	log, err := s.Requests()
	if err != nil {
		t.Fatal(err)
	}
	prefix := "/v1/sprites/" + name + "/"
	var control, controlUpgraded, exec int
	for _, r := range log {
		switch {
		case strings.HasPrefix(r.Path, prefix+"control"):
			control++
			if r.Status == 101 {
				controlUpgraded++
			}
		case strings.HasPrefix(r.Path, prefix+"exec"):
			exec++
		}
	}
	t.Logf("request log: %d /control (%d upgraded), %d /exec", control, controlUpgraded, exec)
	if controlUpgraded > 0 && exec > 0 {
		t.Fatalf("exec used both /control and /exec")
	}
	return controlUpgraded > 0
}
