stats revolve --steps 100 --slots 5 --sweeps foo
