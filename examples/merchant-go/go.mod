module payin-merchant

go 1.19
