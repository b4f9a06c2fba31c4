; fx-mode: uc-unsupported
(set-logic QF_UF)
(check-sat)
