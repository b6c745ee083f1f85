sweep --steps 10 --state-bytes 8 --planners revolve --plot /nonexistent/dir/x.svg
