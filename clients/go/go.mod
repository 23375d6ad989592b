module spritzer/spritzertest

go 1.22
