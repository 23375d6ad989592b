module example.com/spritzer-example

go 1.22
