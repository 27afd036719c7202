from deadinit.cli.main import main

main()
