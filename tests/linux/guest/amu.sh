# Let the scheduler tick a while: the kernel reads the AMU where Debian's kernel does (the access
# log has the values).
sleep 0.05
