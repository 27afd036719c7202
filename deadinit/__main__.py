from deadinit.cli import main

main()
