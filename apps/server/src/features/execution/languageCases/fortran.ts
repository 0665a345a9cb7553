import type { LanguageCases } from "./cases";

export default {
  echo: `program main
  implicit none
  character(len=256) :: line, arg
  integer :: i, status
  line = ''
  read (*, '(a)', iostat=status) line
  write (*, '(a)') 'Hello, ' // trim(line) // '!'
  do i = 1, command_argument_count()
    call get_command_argument(i, arg)
    if (i > 1) write (*, '(a)', advance='no') ' '
    write (*, '(a)', advance='no') trim(arg)
  end do
  write (*, '(a)') ''
  call exit(3)
end program main
`,
  broken: {
    source: `program main
  implicit none
  missing = 1
  print *, 'unreachable'
end program main
`,
    line: 3,
  },
} satisfies LanguageCases;
