"""A local hostile web server and the pages it serves, for the hostile-input tests."""
