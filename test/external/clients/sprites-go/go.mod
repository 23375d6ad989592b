module spritzer.test/external/clients/sprites-go

go 1.25.8

require (
	github.com/superfly/sprites-go v0.1.0
	spritzer/spritzertest v0.0.0
)

require (
	github.com/Masterminds/semver/v3 v3.2.1 // indirect
	github.com/beorn7/perks v1.0.1 // indirect
	github.com/cespare/xxhash/v2 v2.3.0 // indirect
	github.com/gorilla/websocket v1.5.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/munnerz/goautoneg v0.0.0-20191010083416-a7dc8b61c822 // indirect
	github.com/prometheus/client_golang v1.20.5 // indirect
	github.com/prometheus/client_model v0.6.1 // indirect
	github.com/prometheus/common v0.55.0 // indirect
	github.com/prometheus/procfs v0.15.1 // indirect
	github.com/superfly/client-signals/go v0.4.4 // indirect
	golang.org/x/sys v0.46.0 // indirect
	golang.org/x/term v0.0.0-20220526004731-065cf7ba2467 // indirect
	google.golang.org/protobuf v1.34.2 // indirect
)

replace spritzer/spritzertest => ../../../../clients/go
